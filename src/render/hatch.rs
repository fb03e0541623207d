//! Hatch patterns (the `greys` scheme, for print) as primitives clipped
//! to a rectangle: lines for `/`, `\`, `x`, `-`, `|`, `+`, dots for `.`,
//! small circles for `o`. The lines sit on a grid anchored at the canvas
//! origin, so neighbouring cells' patterns line up and the output is the
//! same in SVG and PDF, byte for byte across runs.

use super::geometry::{Area, clip_segment};
use super::scene::{Prim, Stroke};
use crate::color::Color;

/// Distance between hatch lines, in points.
pub const SPACING: f64 = 4.0;
/// Hatch line width, in points.
pub const WIDTH: f64 = 0.6;
/// Hatch colour: near black, as matplotlib's default hatch colour.
pub const COLOR: Color = Color::rgb(0x26, 0x26, 0x26);

fn stroke() -> Stroke {
    Stroke {
        color: COLOR,
        width: WIDTH,
        dash: None,
    }
}

/// Lines `a·x + b·y = c` for every `c` on the grid that cross `r`.
fn family(out: &mut Vec<Prim>, r: &Area, (a, b): (f64, f64)) {
    // Perpendicular spacing SPACING: steps of c by SPACING·|(a, b)|.
    let norm = (a * a + b * b).sqrt();
    let step = SPACING * norm;
    let corners = [(r.x0, r.y0), (r.x1, r.y0), (r.x0, r.y1), (r.x1, r.y1)];
    let cs: Vec<f64> = corners.iter().map(|(x, y)| a * x + b * y).collect();
    let lo = cs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = cs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let far = r.w() + r.h() + 1.0;
    let mut k = (lo / step).ceil() as i64;
    while (k as f64) * step <= hi {
        let c = k as f64 * step;
        // A point on the line, then far along its direction (-b, a).
        let (px, py) = ((a * c) / (norm * norm), (b * c) / (norm * norm));
        let (dx, dy) = (-b / norm, a / norm);
        let (cx, cy) = (r.x0 + r.w() / 2.0, r.y0 + r.h() / 2.0);
        // Start from the point of the line nearest the rectangle's centre.
        let t0 = (cx - px) * dx + (cy - py) * dy;
        let (mx, my) = (px + t0 * dx, py + t0 * dy);
        let p = (mx - far * dx, my - far * dy);
        let q = (mx + far * dx, my + far * dy);
        if let Some((p, q)) = clip_segment(p, q, r)
            && ((q.0 - p.0).powi(2) + (q.1 - p.1).powi(2)) > 1e-6
        {
            out.push(Prim::Path {
                pts: vec![p, q],
                closed: false,
                fill: None,
                stroke: Some(stroke()),
            });
        }
        k += 1;
    }
}

/// Circles of radius `rad` on a staggered grid of pitch `pitch`, wholly inside `r`.
fn dots(out: &mut Vec<Prim>, r: &Area, pitch: f64, rad: f64, filled: bool) {
    let mut j = ((r.y0 + rad) / pitch).ceil() as i64;
    while j as f64 * pitch <= r.y1 - rad {
        let cy = j as f64 * pitch;
        let shift = if j % 2 == 0 { 0.0 } else { pitch / 2.0 };
        let mut i = ((r.x0 + rad - shift) / pitch).ceil() as i64;
        while i as f64 * pitch + shift <= r.x1 - rad {
            out.push(Prim::Circle {
                cx: i as f64 * pitch + shift,
                cy,
                r: rad,
                fill: filled.then_some(COLOR),
                stroke: (!filled).then(|| Stroke {
                    width: 0.5,
                    ..stroke()
                }),
            });
            i += 1;
        }
        j += 1;
    }
}

/// Pushes the primitives of hatch `pattern` over `r` (in points); an
/// unknown pattern draws nothing (patterns come from a fixed list).
pub fn hatch(out: &mut Vec<Prim>, r: &Area, pattern: char) {
    if r.w() <= 0.0 || r.h() <= 0.0 {
        return;
    }
    match pattern {
        // Screen y grows downwards: `/` rises to the right, x + y = c.
        '/' => family(out, r, (1.0, 1.0)),
        '\\' => family(out, r, (1.0, -1.0)),
        'x' => {
            family(out, r, (1.0, 1.0));
            family(out, r, (1.0, -1.0));
        }
        '-' => family(out, r, (0.0, 1.0)),
        '|' => family(out, r, (1.0, 0.0)),
        '+' => {
            family(out, r, (0.0, 1.0));
            family(out, r, (1.0, 0.0));
        }
        '.' => dots(out, r, SPACING, 0.7, true),
        'o' => dots(out, r, 1.75 * SPACING, 1.4, false),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_stay_inside_the_rectangle() {
        let r = Area {
            x0: 10.0,
            y0: 20.0,
            x1: 40.0,
            y1: 80.0,
        };
        for p in ['/', '\\', 'x', '-', '|', '+', '.', 'o'] {
            let mut out = Vec::new();
            hatch(&mut out, &r, p);
            assert!(!out.is_empty(), "{p}");
            for prim in &out {
                match prim {
                    Prim::Path { pts, .. } => {
                        for (x, y) in pts {
                            assert!(*x >= r.x0 - 1e-9 && *x <= r.x1 + 1e-9, "{p}: {x}");
                            assert!(*y >= r.y0 - 1e-9 && *y <= r.y1 + 1e-9, "{p}: {y}");
                        }
                    }
                    Prim::Circle { cx, cy, r: rad, .. } => {
                        assert!(cx - rad >= r.x0 && cx + rad <= r.x1);
                        assert!(cy - rad >= r.y0 && cy + rad <= r.y1);
                    }
                    _ => panic!("unexpected primitive"),
                }
            }
        }
        let mut out = Vec::new();
        hatch(&mut out, &r, '-');
        // 60 pt tall at 4 pt: y = 20, 24, ..., 80.
        assert_eq!(out.len(), 16);
    }
}
