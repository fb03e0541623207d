//! One layer: rows of a table turned into marks, legend entries and the
//! CSV records of what was drawn: the settings every mark shares, then
//! one call per mark kind into `figures::marks`.

pub use super::encode::{Categories, CsvRecord, Extent, LayerCtx, PanelState, Pos, csv_text};
use super::marks::Input;
use super::model::*;
use crate::color::{self, scheme::DEFAULT};
use crate::error::Result;
use crate::value::Row;

/// The most labels one `avoid_overlap` text layer moves apart (per panel):
/// placement tries each label against those already placed.
pub const MAX_MOVABLE_LABELS: usize = 1000;

/// How to give each series its own colour.
pub(super) const SERIES_HINT: &str = "; give `series` the expression that picks the colour";

impl<'a, 's> LayerCtx<'a, 's> {
    /// Builds the layer's mark from `rows`.
    pub fn build(
        &self,
        rows: &[Row],
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Option<Mark>> {
        let ch = self.chans()?;
        self.fit_color(&ch, rows, st)?;
        let l = self.layer;
        let mark = l.mark.get_ref().as_str();
        let dash = self.dash()?;
        let label = match &self.plan.label {
            Some(t) => Some(super::label(self.spec, t, self.globals)?),
            None => None,
        };
        let text_tpl = self.plan.text.as_ref().map(|t| t.get()).transpose()?;
        let horizontal = match l.orient.as_ref().map(|o| o.get_ref().as_str()) {
            None | Some("vertical") => false,
            Some("horizontal") => true,
            Some("diagonal") if mark == "rule" => false,
            Some(other) => {
                return Err(self.err(format!(
                    "unknown orient `{other}` (vertical, horizontal{})",
                    if mark == "rule" { ", diagonal" } else { "" }
                )));
            }
        };
        let diagonal = l.orient.as_ref().is_some_and(|o| o.get_ref() == "diagonal");
        self.check_unused(horizontal)?;
        let mut base = CsvRecord::new();
        base.insert("panel", self.index.0.to_string().into());
        base.insert("layer", self.index.1.to_string().into());
        base.insert("mark", mark.to_string().into());
        if let Some(lbl) = &label {
            base.insert("label", lbl.as_str().into());
        }
        let base = base.freeze();
        let default_fill = color::parse(DEFAULT[0]).ok().flatten();
        let inp = Input {
            ch: &ch,
            rows,
            base: &base,
            label: label.as_deref(),
            horizontal,
            dash,
            text: text_tpl,
            diagonal,
        };
        let built = match mark {
            "boxplot" => self.boxplot(&inp, st, csv)?,
            "ecdf" => self.ecdf(&inp, st, csv)?,
            "area" => self.area(&inp, st, csv)?,
            "errorband" => self.errorband(&inp, st, csv)?,
            "violin" => self.violin(&inp, st, csv)?,
            "errorbar" if self.layer.extent.is_some() => self.errorbar_from_rows(&inp, st, csv)?,
            "bar" => self.bar(&inp, st, csv)?,
            "hist" => self.hist(&inp, st, csv)?,
            "point" => self.point(&inp, st, csv)?,
            "line" => self.line(&inp, st, csv)?,
            "rule" => self.rule(&inp, st, csv)?,
            "arc" => self.arc(&inp, st, csv)?,
            "rect" => {
                let record = |extra: Vec<(&str, String)>, row: &Row, csv: &mut Vec<CsvRecord>| {
                    self.row_record(&inp, extra, row, csv)
                };
                self.build_rect(&ch, rows, st, csv, &record, text_tpl, default_fill, dash)?
            }
            "text" => self.text_mark(&inp, st, csv)?,
            "errorbar" => self.errorbar(&inp, st, csv)?,
            other => {
                return Err(self.spec.error(
                    l.mark.span(),
                    format!("unknown mark `{other}` (bar, point, line, rule, rect, text, errorbar, hist, boxplot, ecdf, area, errorband, violin, arc)"),
                ));
            }
        };
        Ok(Some(built))
    }
}
