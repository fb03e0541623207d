//! A figure's `facet`, compiled: its expressions (`field`, `row`,
//! `column`), each over the rows of every layer's table, and its panels'
//! `title`. Which panels there are depends on the data: the figures
//! module works that out. Their errors are the figure's, reported where
//! the build reaches them (see [`Later`]).

use super::Later;
use crate::expr::{Expr, Template};
use crate::spec::{FacetSpec, LayerSpec, LoadedSpec, SpannedStr};

/// One facet expression.
#[derive(Debug)]
pub struct FacetExpr<'s> {
    /// As written.
    pub src: &'s SpannedStr,
    /// Compiled over no table (its error, if any, is the one reported).
    pub compiled: Later<Expr<'s>>,
    /// Compiled over each layer's table (`None`: a layer without `data`,
    /// or an expression that does not compile).
    pub in_layers: Vec<Option<Expr<'s>>>,
}

/// A figure's `facet`.
#[derive(Debug)]
pub struct FacetPlan<'s> {
    /// `field`.
    pub field: Option<FacetExpr<'s>>,
    /// `row`.
    pub row: Option<FacetExpr<'s>>,
    /// `column`.
    pub column: Option<FacetExpr<'s>>,
    /// The panels' `title`.
    pub title: Option<Later<Template<'s>>>,
}

/// Compiles `fs` for a figure of `layers`.
pub fn compile<'s>(
    spec: &LoadedSpec,
    fs: &'s FacetSpec,
    layers: &'s [toml::Spanned<LayerSpec>],
) -> FacetPlan<'s> {
    let expr = |src: &'s Option<SpannedStr>| {
        src.as_ref().map(|src| FacetExpr {
            src,
            compiled: Later::new(Expr::compile(spec, src)),
            in_layers: layers
                .iter()
                .map(|l| {
                    let d = l.get_ref().data.as_ref()?;
                    Some(Expr::compile(spec, src).ok()?.in_table(d.get_ref()))
                })
                .collect(),
        })
    };
    FacetPlan {
        field: expr(&fs.field),
        row: expr(&fs.row),
        column: expr(&fs.column),
        title: fs
            .title
            .as_ref()
            .map(|t| Later::new(Template::compile(spec, t))),
    }
}
