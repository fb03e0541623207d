//! The figures of the spec, compiled: each figure's size (when the
//! document's terms give it), its titles and every layer of its panels.
//! The figures module resolves them against the tables; what depends on
//! the data (scales' domains, categories, facets' panels) is worked out
//! there.

use indexmap::IndexMap;
use toml::Spanned;

use super::axes::{self, AxisPlan, NumberExpr};
use super::facet::{self, FacetPlan};
use super::layers::{self, LayerPlan};
use super::sizing;
use crate::error::Result;
use crate::expr::Template;
use crate::spec::{FigureSpec, LoadedSpec};

/// A figure as the figures module builds it.
#[derive(Debug)]
pub struct FigurePlan<'s> {
    /// The spec.
    pub spec: &'s LoadedSpec,
    /// The figure's name.
    pub name: &'s str,
    /// The figure as written.
    pub figure: &'s Spanned<FigureSpec>,
    /// Width and height in points and the document's font size, when the
    /// figure is sized in the document's terms (see [`sizing`]); `None`
    /// for a `size` in inches, evaluated over the numbers.
    pub sized: Option<(f64, f64, Option<f64>)>,
    /// The typeface of its text (`[style]`'s).
    pub face: crate::font::Face,
    /// A `size` in inches: the width's and height's expressions.
    pub size: Option<[NumberExpr<'s>; 2]>,
    /// Its `title`.
    pub title: Option<Template<'s>>,
    /// Its own `layers` (one panel's).
    pub layers: Vec<LayerPlan<'s>>,
    /// Its own `x` and `y` (one panel's).
    pub axes: [AxisPlan<'s>; 2],
    /// Its `facet` (of its own layers).
    pub facet: Option<FacetPlan<'s>>,
    /// Its `panels`, in order.
    pub panels: Vec<PanelPlan<'s>>,
}

/// A panel of a figure with `panels`.
#[derive(Debug)]
pub struct PanelPlan<'s> {
    /// Its `title`.
    pub title: Option<Template<'s>>,
    /// Its layers.
    pub layers: Vec<LayerPlan<'s>>,
    /// Its `x` and `y`.
    pub axes: [AxisPlan<'s>; 2],
}

impl<'s> FigurePlan<'s> {
    /// The layers of panel `i`: the figure's own without `panels`.
    pub fn panel_layers(&self, i: usize) -> &[LayerPlan<'s>] {
        match &self.figure.get_ref().panels {
            None => &self.layers,
            Some(_) => self.panels.get(i).map_or(&[], |p| &p.layers),
        }
    }

    /// The axes of panel `i`: the figure's own without `panels`.
    pub fn panel_axes(&self, i: usize) -> &[AxisPlan<'s>; 2] {
        match &self.figure.get_ref().panels {
            None => &self.axes,
            Some(_) => self.panels.get(i).map_or(&self.axes, |p| &p.axes),
        }
    }
}

/// Compiles every `[figures.NAME]`. Errors, in the order they are looked
/// for: the document's style, the formats, then figure by figure its size,
/// background, bounds, settings left unread, title and layers.
pub fn compile(spec: &LoadedSpec) -> Result<IndexMap<String, FigurePlan<'_>>> {
    sizing::style(spec)?;
    sizing::check_read(spec)?;
    super::palette::fixed(spec)?;
    super::formats::Formats::of(spec)?;
    let mut out = IndexMap::new();
    for (name, fig) in &spec.spec.figures {
        out.insert(name.clone(), figure(spec, name, fig)?);
    }
    Ok(out)
}

fn figure<'s>(
    spec: &'s LoadedSpec,
    name: &'s str,
    fig: &'s Spanned<FigureSpec>,
) -> Result<FigurePlan<'s>> {
    let sized = sizing::figure_size(spec, name, fig)?;
    super::formats::background(spec, fig.get_ref())?;
    let f = fig.get_ref();
    crate::spec::bounds::figure(spec, f)?;
    unread_figure_keys(spec, f)?;
    let title = f
        .title
        .as_ref()
        .map(|t| Template::compile(spec, t))
        .transpose()?;
    let scheme = f.scheme.as_ref().map(|s| s.get_ref().as_str());
    let layers = f
        .layers
        .iter()
        .flatten()
        .map(|l| layers::compile(spec, l, scheme))
        .collect::<Result<_>>()?;
    let mut panels = Vec::new();
    for p in f.panels.iter().flatten() {
        let p = p.get_ref();
        let title = p
            .title
            .as_ref()
            .map(|t| Template::compile(spec, t))
            .transpose()?;
        let layers = p
            .layers
            .iter()
            .map(|l| layers::compile(spec, l, scheme))
            .collect::<Result<_>>()?;
        let axes = [axes::compile(spec, &p.x), axes::compile(spec, &p.y)];
        panels.push(PanelPlan {
            title,
            layers,
            axes,
        });
    }
    let own = |a: &'s Option<crate::spec::AxisSpec>| {
        a.as_ref()
            .map_or_else(AxisPlan::default, |a| axes::compile(spec, a))
    };
    Ok(FigurePlan {
        spec,
        name,
        figure: fig,
        sized,
        face: sizing::style(spec)?.face,
        size: f.size.as_ref().map(|s| {
            [
                axes::number_expr(spec, &s[0]),
                axes::number_expr(spec, &s[1]),
            ]
        }),
        title,
        layers,
        axes: [own(&f.x), own(&f.y)],
        facet: f
            .facet
            .as_ref()
            .map(|fc| facet::compile(spec, fc.get_ref(), f.layers.as_deref().unwrap_or(&[]))),
        panels,
    })
}

/// Settings whose other settings leave them unread: `title_size` with no
/// title to print, a hidden legend's looks.
fn unread_figure_keys(spec: &LoadedSpec, f: &crate::spec::FigureSpec) -> Result<()> {
    if let Some(size) = &f.title_size
        && f.title.is_none()
        && !f
            .panels
            .iter()
            .flatten()
            .any(|p| p.get_ref().title.is_some())
    {
        return Err(spec.error(
            size.span(),
            "`title_size` does nothing: neither the figure nor a panel has a `title`",
        ));
    }
    let legends = f.legend.iter().chain(
        f.panels
            .iter()
            .flatten()
            .filter_map(|p| p.get_ref().legend.as_ref()),
    );
    for l in legends {
        if let Some(p) = l.position.as_ref().filter(|p| p.get_ref() == "none") {
            let set: Vec<&str> = [
                ("columns", l.columns.is_some()),
                ("frame", l.frame.is_some()),
                ("font_size", l.font_size.is_some()),
            ]
            .into_iter()
            .filter_map(|(k, on)| on.then_some(k))
            .collect();
            if let Some(first) = set.first() {
                return Err(spec.error(
                    p.span(),
                    format!("a legend with `position = \"none\"` is not drawn, so its `{first}` does nothing"),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(layer: &str) -> LoadedSpec {
        let text = format!(
            "[sources.s]\nrows = [{{ a = 1, c = \"x\" }}]\n[figures.f]\nsize = [1, 1]\nlayers = [{layer}]\n"
        );
        crate::spec::parse(&text, std::path::Path::new("artifact.toml")).unwrap()
    }

    #[test]
    fn a_layers_channels_are_compiled_with_their_table() {
        let spec = spec("{ mark = \"point\", data = \"s\", x = \"a\", y = \"a * 2\" }");
        let plan = compile(&spec).unwrap();
        let l = &plan["f"].panel_layers(0)[0];
        assert!(matches!(
            l.chans.y,
            Some(crate::plan::channels::Chan::Expr(_))
        ));
        assert!(l.chans.color.is_none());
    }

    #[test]
    fn a_part_only_the_build_compiled_keeps_its_error_for_the_build() {
        // `xOffset` and `series` were compiled only while building: their
        // mistakes stay the figure's, not the spec's.
        let spec = spec(
            "{ mark = \"point\", data = \"s\", x = \"c\", y = \"a\", xOffset = \"c +\" }, \
             { mark = \"line\", data = \"s\", x = \"a\", y = \"a\", series = \"a )\" }",
        );
        let plan = compile(&spec).unwrap();
        let (l, line) = (&plan["f"].layers[0], &plan["f"].layers[1]);
        let first = |e: crate::error::Error| e.to_string().lines().next().unwrap().to_string();
        let offset = l.chans.x_offset.as_ref().unwrap().get().unwrap_err();
        assert_eq!(
            first(offset),
            "artifact.toml:5:69: invalid expression: syntax error: unexpected end of input, expected expression"
        );
        // Reported again at each use.
        assert!(l.chans.x_offset.as_ref().unwrap().get().is_err());
        assert!(line.series.as_ref().unwrap().get().is_err());
    }
}
