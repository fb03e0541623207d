//! Drawing placed labels (with their notes) and line end labels.

use super::super::layout::push_text;
use super::super::place::{text_anchor, text_area};
use super::super::scene::{Prim, Stroke};
use super::{Area, Label, Placed};
use crate::color::Color;
use crate::figures::model::TextItem;
use crate::font as text;

/// Draws placed labels and their leaders; a label that still touches
/// something becomes a note naming it and what it touches.
pub fn draw(
    out: &mut Vec<Prim>,
    notes: &mut Vec<String>,
    labels: &[Label],
    placed: &[Option<Placed>],
) {
    for (l, p) in labels.iter().zip(placed) {
        let Some(p) = p else { continue };
        if let Some((a, b)) = p.leader {
            out.push(Prim::Path {
                pts: vec![a, b],
                closed: false,
                fill: None,
                stroke: Some(Stroke {
                    color: Color::rgb(0x88, 0x88, 0x88),
                    width: 0.4,
                    dash: None,
                }),
            });
        }
        let t = l.item;
        push_text(out, p.x, p.top, &t.text, t.size, t.color, p.align);
        if !p.conflicts.is_empty() {
            let mut what = p.conflicts.clone();
            what.dedup();
            // The label is data, and may break lines: one line here.
            notes.push(format!(
                "label `{}` could not be placed clear of {}",
                crate::error::shown(&t.text),
                what.join(", ")
            ));
        }
    }
}

/// Line end labels: right of their points, moved apart vertically (in the
/// points' order) so none overlaps the next, kept inside the plot's height.
/// Draws them and returns their boxes.
pub fn draw_end_labels(
    out: &mut Vec<Prim>,
    items: &[(&TextItem, (f64, f64))],
    area: &Area,
) -> Vec<Area> {
    let mut spots: Vec<(usize, f64, f64)> = items
        .iter()
        .enumerate()
        .map(|(i, (t, p))| {
            let (_, top, _) = text_anchor(t, *p);
            let (_, h) = text::block(&t.text, t.size);
            (i, top, h)
        })
        .collect();
    spots.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    // Push down where one would overlap the one above, then up from the
    // bottom edge if the last left the plot.
    let gap = 1.0;
    for k in 1..spots.len() {
        let min = spots[k - 1].1 + spots[k - 1].2 + gap;
        if spots[k].1 < min {
            spots[k].1 = min;
        }
    }
    let mut limit = area.y1;
    for s in spots.iter_mut().rev() {
        if s.1 + s.2 > limit {
            s.1 = limit - s.2;
        }
        limit = s.1 - gap;
    }
    let mut boxes = Vec::new();
    for (i, top, _) in spots {
        let (t, p) = items[i];
        let (x, _, align) = text_anchor(t, p);
        push_text(out, x, top, &t.text, t.size, t.color, align);
        boxes.push(text_area(&t.text, t.size, x, top, align));
    }
    boxes
}
