//! Placing legends and labels where they hide the least.
//!
//! The legend box follows matplotlib's geometry (handle 2 em, label spacing
//! 0.5 em, border padding 0.4 em). `best` takes the first of matplotlib's
//! candidate positions, then of a finer grid, that keeps clear of every
//! mark and fixed text; with none free the legend goes outside. Movable labels
//! (`avoid_overlap`) try positions around their point, nearest first, and
//! keep the first that overlaps no point, label or legend and stays inside
//! the plot; the seed's fig5 labels overlapped each other and the legend.

use super::layout::{Area, marker, push_text};
use super::lint::{MarkIndex, Over};
use super::scene::{Prim, Stroke};
use crate::color::Color;
use crate::figures::model::*;
use crate::font as text;

fn metrics(l: &Legend) -> (f64, f64, f64, f64, f64) {
    let f = l.font_size;
    // handle length, handle height, handle-text pad, row spacing, border pad
    (2.0 * f, 0.7 * f, 0.8 * f, 0.5 * f, 0.4 * f)
}

fn rows_of(l: &Legend) -> usize {
    l.entries.len().div_ceil(l.columns.max(1))
}

fn column_widths(l: &Legend) -> Vec<f64> {
    let (hl, _, pad, _, _) = metrics(l);
    let rows = rows_of(l).max(1);
    let mut widths = vec![0.0f64; l.columns.max(1)];
    for (i, e) in l.entries.iter().enumerate() {
        let c = i / rows;
        widths[c] = widths[c].max(hl + pad + text::block(&e.label, l.font_size).0);
    }
    widths
}

fn row_height(l: &Legend, label: &str) -> f64 {
    text::block(label, l.font_size).1.max(0.7 * l.font_size)
}

/// The legend box's (width, height) in points; (0, 0) without entries.
pub fn legend_size(l: &Legend) -> (f64, f64) {
    if l.entries.is_empty() || l.position == LegendPos::Hidden {
        return (0.0, 0.0);
    }
    let (_, _, _, gap, border) = metrics(l);
    let widths = column_widths(l);
    let w =
        widths.iter().sum::<f64>() + 2.0 * l.font_size * (widths.len() as f64 - 1.0) + 2.0 * border;
    let rows = rows_of(l);
    let mut h = 0.0f64;
    for c in 0..l.columns.max(1) {
        let col: f64 = l
            .entries
            .iter()
            .skip(c * rows)
            .take(rows)
            .map(|e| row_height(l, &e.label))
            .sum::<f64>()
            + gap * (rows as f64 - 1.0);
        h = h.max(col);
    }
    (w, h + 2.0 * border)
}

/// How far (points) a legend placed by `best`, and a fixed text moved off
/// a line, keep from every mark: a box that touches a mark (0 pt) is on it.
pub const CLEAR: f64 = 2.0;

/// The room (points) `best` looks for first around the legend, before it
/// settles for [`CLEAR`].
pub const ROOMY: f64 = 3.0 * CLEAR;

/// Where the legend goes, given the plot area and what is drawn in it.
/// `best` takes the first place inside the plot that keeps [`ROOMY`],
/// else [`CLEAR`], points from every mark in `marks` and every box in
/// `keep_clear` (fixed texts such as bar values): matplotlib's candidates
/// in its order, then a finer grid of places, nearest the plot's edges
/// first. `None` when the
/// legend is hidden or has no entries, and for `best` when no place
/// inside is free: the caller then moves it outside the plot.
pub fn place_legend(
    l: &Legend,
    size: (f64, f64),
    area: &Area,
    marks: &MarkIndex,
    keep_clear: &[Area],
) -> Option<Area> {
    if size.0 == 0.0 {
        return None;
    }
    let pad = 0.5 * l.font_size;
    let at = |fx: f64, fy: f64| {
        let x0 = area.x0 + pad + fx * (area.w() - 2.0 * pad - size.0);
        let y0 = area.y0 + pad + (1.0 - fy) * (area.h() - 2.0 * pad - size.1);
        Area {
            x0,
            y0,
            x1: x0 + size.0,
            y1: y0 + size.1,
        }
    };
    match l.position {
        LegendPos::Hidden => None,
        LegendPos::Inside(fx, fy) => Some(at(fx, fy)),
        LegendPos::Right => {
            let x0 = area.x1 + 2.0 * pad;
            let y0 = area.y0 + (area.h() - size.1) / 2.0;
            Some(Area {
                x0,
                y0,
                x1: x0 + size.0,
                y1: y0 + size.1,
            })
        }
        LegendPos::Bottom => {
            let x0 = area.x0 + (area.w() - size.0) / 2.0;
            let y0 = area.y1 + 40.0;
            Some(Area {
                x0,
                y0,
                x1: x0 + size.0,
                y1: y0 + size.1,
            })
        }
        LegendPos::Best => {
            // No room inside at all: outside.
            if size.0 + 2.0 * pad > area.w() || size.1 + 2.0 * pad > area.h() {
                return None;
            }
            let free = |a: &Area, clear: f64| {
                let g = Area {
                    x0: a.x0 - clear,
                    y0: a.y0 - clear,
                    x1: a.x1 + clear,
                    y1: a.y1 + clear,
                };
                !keep_clear.iter().any(|o| g.overlap(o) > 0.0)
                    && marks.hit(a, clear, Over::Legend).is_empty()
                    && !marks.exhausted()
            };
            // The emptiest: a place with room to spare first, then one
            // that only keeps `CLEAR`.
            let places: Vec<Area> = best_candidates()
                .into_iter()
                .map(|(fx, fy)| at(fx, fy))
                .collect();
            [ROOMY, CLEAR]
                .into_iter()
                .find_map(|clear| places.iter().copied().find(|a| free(a, clear)))
        }
    }
}

/// The places `best` tries, as fractions of the room (0, 0: lower left):
/// matplotlib's candidates (upper right, upper left, lower left, lower
/// right, right, center left, lower center, upper center, center), then a
/// grid in tenths, nearest an edge first, upper before lower and right
/// before left.
fn best_candidates() -> Vec<(f64, f64)> {
    let mut out = vec![
        (1.0, 1.0),
        (0.0, 1.0),
        (0.0, 0.0),
        (1.0, 0.0),
        (1.0, 0.5),
        (0.0, 0.5),
        (0.5, 0.0),
        (0.5, 1.0),
        (0.5, 0.5),
    ];
    let mut grid: Vec<(i32, i32)> = (0..=10)
        .flat_map(|i| (0..=10).map(move |j| (i, j)))
        .collect();
    let edge = |v: i32| v.min(10 - v);
    grid.sort_by_key(|&(i, j)| (edge(i) + edge(j), -j, -i));
    for (i, j) in grid {
        let c = (f64::from(i) / 10.0, f64::from(j) / 10.0);
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The spec's word for an inside legend position (`upper right`), as
/// notes name it.
pub fn inside_name(fx: f64, fy: f64) -> &'static str {
    let col = |v: f64| (v * 2.0).round() as i32;
    match (col(fx), col(fy)) {
        (2, 2) => "upper right",
        (0, 2) => "upper left",
        (0, 0) => "lower left",
        (2, 0) => "lower right",
        (2, 1) => "center right",
        (0, 1) => "center left",
        (1, 2) => "upper center",
        (1, 0) => "lower center",
        _ => "center",
    }
}

/// Draws the legend in `at`.
pub fn draw_legend(out: &mut Vec<Prim>, l: &Legend, at: Area) {
    let (hl, hh, pad, gap, border) = metrics(l);
    if l.frame {
        out.push(Prim::Rect {
            x: at.x0,
            y: at.y0,
            w: at.w(),
            h: at.h(),
            fill: Some(Color::WHITE.with_alpha(0.8)),
            stroke: Some(Stroke {
                color: Color::rgb(0xcc, 0xcc, 0xcc),
                width: 0.8,
                dash: None,
            }),
        });
    }
    let widths = column_widths(l);
    let rows = rows_of(l).max(1);
    let mut x = at.x0 + border;
    for (c, w) in widths.iter().enumerate() {
        let mut y = at.y0 + border;
        for e in l.entries.iter().skip(c * rows).take(rows) {
            let rh = row_height(l, &e.label);
            let cy = y + 0.365 * l.font_size;
            match &e.swatch {
                Swatch::Patch(style) | Swatch::Hatched(style, _) => {
                    out.push(Prim::Rect {
                        x,
                        y: cy - hh / 2.0,
                        w: hl,
                        h: hh,
                        fill: style.fill,
                        stroke: style
                            .stroke
                            .filter(|_| {
                                style.stroke_width > 0.0 && style.stroke != Some(Color::WHITE)
                            })
                            .map(|c| Stroke {
                                color: c,
                                width: style.stroke_width,
                                dash: None,
                            }),
                    });
                    if let Swatch::Hatched(_, h) = &e.swatch {
                        let r = super::geometry::Area {
                            x0: x,
                            y0: cy - hh / 2.0,
                            x1: x + hl,
                            y1: cy + hh / 2.0,
                        };
                        super::hatch::hatch(out, &r, *h);
                    }
                }
                Swatch::Line(style, m) => {
                    out.push(Prim::Path {
                        pts: vec![(x, cy), (x + hl, cy)],
                        closed: false,
                        fill: None,
                        stroke: style.stroke.map(|c| Stroke {
                            color: c,
                            width: style.stroke_width,
                            dash: style.dash.pattern(style.stroke_width),
                        }),
                    });
                    if let Some((shape, d)) = m {
                        let st = Style {
                            fill: style.stroke,
                            stroke: None,
                            stroke_width: 0.0,
                            dash: Dash::Solid,
                        };
                        out.push(marker(*shape, x + hl / 2.0, cy, *d, &st));
                    }
                }
                Swatch::Marker(shape, d, style) => {
                    out.push(marker(*shape, x + hl / 2.0, cy, *d, style))
                }
            }
            push_text(
                out,
                x + hl + pad,
                y,
                &e.label,
                l.font_size,
                Color::BLACK,
                Align::Left,
            );
            y += rh + gap;
        }
        x += w + 2.0 * l.font_size;
    }
}

/// The text's block box when its block top-left/centre/right anchor is (x, top).
pub fn text_area(s: &str, size: f64, x: f64, top: f64, align: Align) -> Area {
    let (w, h) = text::block(s, size);
    block_area((w, h), x, top, align)
}

/// The box of a `w` x `h` text block (points) at `x` (as `align` says) and
/// block top `top`: [`text_area`] for a block measured once.
pub fn block_area((w, h): (f64, f64), x: f64, top: f64, align: Align) -> Area {
    let x0 = match align {
        Align::Left => x,
        Align::Center => x - w / 2.0,
        Align::Right => x - w,
    };
    Area {
        x0,
        y0: top,
        x1: x0 + w,
        y1: top + h,
    }
}

/// Where a fixed text goes: (x, block top, alignment).
pub fn text_anchor(t: &TextItem, (ax, ay): (f64, f64)) -> (f64, f64, Align) {
    let (_, h) = text::block(&t.text, t.size);
    let (x, y) = (ax + t.dx, ay - t.dy);
    let top = match t.baseline {
        Baseline::Bottom => y - h,
        Baseline::Middle => y - h / 2.0,
        Baseline::Top => y,
    };
    (x, top, t.align)
}

/// Where a fixed text goes: where [`text_anchor`] puts it, or, when that
/// lies on a mark (a rule through a bar's value label), moved on away
/// from its point, a point at a time up to twice its height, to the first
/// place [`CLEAR`] of every mark inside the plot. A text on its point
/// (no offset, a cell's value) stays.
pub fn fixed_anchor(
    t: &TextItem,
    anchor: (f64, f64),
    area: &Area,
    marks: &MarkIndex,
) -> (f64, f64, Align) {
    let own = text_anchor(t, anchor);
    let (dx, dy) = (
        t.dx.signum() * f64::from(t.dx != 0.0),
        -t.dy.signum() * f64::from(t.dy != 0.0),
    );
    let on_marks = |(x, top, align): (f64, f64, Align), clear: f64| {
        !marks
            .hit(
                &text_area(&t.text, t.size, x, top, align),
                clear,
                Over::Text,
            )
            .is_empty()
    };
    if (dx == 0.0 && dy == 0.0) || !on_marks(own, super::lint::TOUCH) {
        return own;
    }
    let inside = |(x, top, align): (f64, f64, Align)| {
        area.contains(&text_area(&t.text, t.size, x, top, align))
    };
    let h = text::block(&t.text, t.size).1;
    (1..=(2.0 * h).ceil().min(200.0) as usize)
        .map(|k| (own.0 + dx * k as f64, own.1 + dy * k as f64, own.2))
        .find(|c| inside(*c) && !on_marks(*c, CLEAR) && !marks.exhausted())
        .unwrap_or(own)
}

/// Where a movable label goes: its asked-for position if that is free,
/// else the nearest free spot around its point (least overlap if none is).
pub fn place_label(
    t: &TextItem,
    anchor: (f64, f64),
    area: &Area,
    obstacles: &[Area],
    placed: &[Area],
) -> (f64, f64, Align) {
    let own = text_anchor(t, anchor);
    let (w, h) = text::block(&t.text, t.size);
    let mut candidates = vec![own];
    let (ax, ay) = anchor;
    for dist in [4.0, 9.0, 15.0] {
        let d = dist;
        candidates.extend([
            (ax + d, ay - d - h * 0.0 - h, Align::Left),
            (ax + d, ay - h / 2.0, Align::Left),
            (ax + d, ay + d, Align::Left),
            (ax - d, ay - d - h, Align::Right),
            (ax - d, ay - h / 2.0, Align::Right),
            (ax - d, ay + d, Align::Right),
            (ax, ay - d - h, Align::Center),
            (ax, ay + d, Align::Center),
        ]);
    }
    let own_marker = Area {
        x0: ax - 1.0,
        y0: ay - 1.0,
        x1: ax + 1.0,
        y1: ay + 1.0,
    };
    let mut best: Option<(f64, (f64, f64, Align))> = None;
    for c in candidates {
        let a = text_area(&t.text, t.size, c.0, c.1, c.2);
        let mut cost: f64 = placed.iter().map(|p| a.overlap(p)).sum::<f64>() * 4.0;
        cost += obstacles
            .iter()
            .filter(|o| o.overlap(&own_marker) == 0.0)
            .map(|o| a.overlap(o))
            .sum::<f64>();
        if !area.contains(&a) {
            cost += w * h;
        }
        if cost == 0.0 {
            return c;
        }
        if best.as_ref().is_none_or(|(bc, _)| cost < *bc) {
            best = Some((cost, c));
        }
    }
    best.map_or(own, |(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::scene::{MarkShape, Shape};

    fn label(text: &str) -> TextItem {
        TextItem {
            x: 0.0,
            y: 0.0,
            text: text.into(),
            dx: 0.0,
            dy: 2.5,
            align: Align::Center,
            baseline: Baseline::Bottom,
            size: 8.0,
            color: Color::BLACK,
        }
    }

    fn plot() -> Area {
        Area {
            x0: 0.0,
            y0: 0.0,
            x1: 300.0,
            y1: 200.0,
        }
    }

    /// labels/speedup_bars: the y = 1 rule ran through "0.8×" above its
    /// bar; the label moves up, a point at a time, to 2 pt above the rule.
    #[test]
    fn a_value_label_struck_by_a_rule_moves_up_past_it() {
        let rule = [MarkShape {
            kind: "rule",
            shape: Shape::Polyline(vec![(0.0, 100.0), (300.0, 100.0)], 0.4),
        }];
        let index = MarkIndex::new(&rule);
        let (x, top, align) = fixed_anchor(&label("0.8×"), (150.0, 108.0), &plot(), &index);
        assert_eq!((x, align), (150.0, Align::Center));
        // Asked for: bottom at 105.5, top at 97.5, across the rule.
        let bottom = top + 8.0;
        assert!(
            bottom <= 100.0 - 0.4 - CLEAR && bottom > 100.0 - 0.4 - CLEAR - 1.0,
            "{top}"
        );
    }

    /// A cell's value (no offset) stays on its point even on a mark.
    #[test]
    fn a_text_without_an_offset_stays() {
        let rule = [MarkShape {
            kind: "rule",
            shape: Shape::Polyline(vec![(0.0, 100.0), (300.0, 100.0)], 0.4),
        }];
        let mut t = label("7");
        t.dy = 0.0;
        t.baseline = Baseline::Middle;
        let index = MarkIndex::new(&rule);
        assert_eq!(
            fixed_anchor(&t, (150.0, 100.0), &plot(), &index),
            text_anchor(&t, (150.0, 100.0))
        );
    }

    /// 100,000 bars on one spot and 2,000 labels on them: the look-ups stop
    /// at the index's work budget, and the labels keep their places.
    #[test]
    fn fixed_labels_on_100k_bars_on_one_spot_are_bounded() {
        let bars: Vec<MarkShape> = (0..100_000)
            .map(|_| MarkShape {
                kind: "bar",
                shape: Shape::Box(Area {
                    x0: 140.0,
                    y0: 90.0,
                    x1: 160.0,
                    y1: 200.0,
                }),
            })
            .collect();
        let index = MarkIndex::new(&bars);
        let t = label("label");
        for _ in 0..2_000 {
            let at = fixed_anchor(&t, (150.0, 95.0), &plot(), &index);
            assert_eq!(at.0, 150.0);
        }
        assert!(index.exhausted());
    }
}
