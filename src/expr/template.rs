//! Templates (titles, labels, text marks), compiled in the same
//! environment as expressions.

use std::ops::Range;
use std::sync::Arc;

use super::{Globals, depth, environment, message, spaced_hint, too_deep, why, why_in};
use crate::error::{Error, Result};
use crate::spec::{LoadedSpec, SpannedStr};
use crate::value::{Row, Value};

/// A compiled template (titles, labels, text marks).
pub struct Template<'s> {
    compiled: minijinja::Template<'s, 's>,
    /// The template as written.
    pub text: &'s str,
    /// Its span in the spec.
    pub span: Range<usize>,
    /// The table whose rows it renders, for messages.
    table: Option<Arc<str>>,
}

impl std::fmt::Debug for Template<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Template({:?})", self.text)
    }
}

impl<'s> Template<'s> {
    /// Compiles `src`; a syntax error points at it in the spec.
    pub fn compile(spec: &LoadedSpec, src: &'s SpannedStr) -> Result<Template<'s>> {
        Self::compile_str(spec, src.get_ref(), src.span())
    }

    /// Compiles `text` found at `span` of the spec.
    pub fn compile_str(
        spec: &LoadedSpec,
        text: &'s str,
        span: Range<usize>,
    ) -> Result<Template<'s>> {
        if depth::template_depth(text) > depth::MAX_DEPTH {
            return Err(spec.error(span, format!("invalid template: {}", too_deep())));
        }
        if let Some(why) = depth::too_long(text) {
            return Err(spec.error(span, format!("invalid template: {why}")));
        }
        match environment().template_from_str(text) {
            Ok(compiled) => Ok(Template {
                compiled,
                table: None,
                text,
                span,
            }),
            Err(e) => Err(spec.error(
                span,
                format!("invalid template: {}{}", message(&e), spaced_hint(text, &e)),
            )),
        }
    }

    /// The template, naming the table whose rows it renders (for messages).
    pub fn in_table(mut self, table: &str) -> Self {
        self.table = Some(Arc::from(table));
        self
    }

    /// The variables the template reads (row fields, `n`, `v`, `meta`...).
    pub fn variables(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .compiled
            .undeclared_variables(false)
            .into_iter()
            .collect();
        v.sort();
        v
    }

    /// Renders with a context; errors point at the template in the spec.
    pub fn render(&self, spec: &LoadedSpec, ctx: Value) -> Result<String> {
        super::shielded(|| self.compiled.render(ctx.clone())).map_err(|e| {
            if let Some(mistake) = super::spec_mistake(&e, &self.span) {
                return mistake;
            }
            spec.error(
                self.span.clone(),
                format!(
                    "cannot render: {}",
                    why_in(&e, &ctx, Some(&self.compiled.undeclared_variables(false)))
                ),
            )
        })
    }

    /// Renders for one row; an error names the row's file and line.
    pub fn render_row(&self, globals: &Arc<Globals>, row: &Row) -> Result<String> {
        super::shielded(|| self.compiled.render(globals.row_context(row))).map_err(|e| {
            if let Some(mistake) = super::spec_mistake(&e, &self.span) {
                return mistake;
            }
            Error::input(
                row.origin.path.to_string(),
                row.origin.line_opt(),
                None,
                format!(
                    "cannot render `{}`: {}",
                    self.text,
                    why(
                        &e,
                        globals,
                        Some(row),
                        self.table.as_deref(),
                        Some(&self.compiled.undeclared_variables(false)),
                    )
                ),
            )
        })
    }
}
