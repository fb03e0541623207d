//! Reading a laid-out scene back for label tests: labels, markers, leaders
//! and line paths, as boxes and segments in points.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use artifact::figures::model::{Align, Plot};
use artifact::figures::{Outcome, compile};
use artifact::font as text;
use artifact::render::scene::{Prim, Scene};

/// A box in points (y down).
#[derive(Debug, Clone, Copy)]
pub struct Bx {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Bx {
    pub fn overlaps(&self, o: &Bx) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
    pub fn shrink(&self, d: f64) -> Bx {
        Bx {
            x0: self.x0 + d,
            y0: self.y0 + d,
            x1: self.x1 - d,
            y1: self.y1 - d,
        }
    }
    pub fn centre(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
    /// Distance from a point to the box (0 inside).
    pub fn dist(&self, p: (f64, f64)) -> f64 {
        let dx = (self.x0 - p.0).max(0.0).max(p.0 - self.x1);
        let dy = (self.y0 - p.1).max(0.0).max(p.1 - self.y1);
        dx.hypot(dy)
    }
    /// Whether segment a-b passes through the box (sampled finely).
    pub fn hit_by(&self, a: (f64, f64), b: (f64, f64)) -> bool {
        (0..=400).any(|i| {
            let t = i as f64 / 400.0;
            let p = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
            p.0 > self.x0 && p.0 < self.x1 && p.1 > self.y0 && p.1 < self.y1
        })
    }
}

/// One text line drawn: its text and box.
#[derive(Debug, Clone)]
pub struct Label {
    pub text: String,
    pub size: f64,
    pub bx: Bx,
    pub color: artifact::color::Color,
}

/// The scene's text lines of `size` points.
pub fn texts(scene: &Scene, size: f64) -> Vec<Label> {
    scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Text {
                x,
                y,
                text: t,
                size: s,
                align,
                vertical: false,
                color,
            } if (*s - size).abs() < 1e-9 => {
                let w = text::width_in(scene.face, t, *s);
                let x0 = match align {
                    Align::Left => *x,
                    Align::Center => x - w / 2.0,
                    Align::Right => x - w,
                };
                Some(Label {
                    text: t.clone(),
                    size: *s,
                    bx: Bx {
                        x0,
                        y0: *y,
                        x1: x0 + w,
                        y1: y + s,
                    },
                    color: *color,
                })
            }
            _ => None,
        })
        .collect()
}

/// Marker boxes (circles and filled closed paths) in drawing order.
pub fn markers(scene: &Scene) -> Vec<Bx> {
    scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Circle { cx, cy, r, .. } => Some(Bx {
                x0: cx - r,
                y0: cy - r,
                x1: cx + r,
                y1: cy + r,
            }),
            Prim::Path {
                pts,
                closed: true,
                fill: Some(_),
                ..
            } => Some(Bx {
                x0: pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min),
                y0: pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min),
                x1: pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max),
                y1: pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max),
            }),
            _ => None,
        })
        .collect()
}

/// Open paths drawn with a stroke of `width` points.
pub fn paths(scene: &Scene, width: f64) -> Vec<Vec<(f64, f64)>> {
    scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Path {
                pts,
                closed: false,
                stroke: Some(s),
                ..
            } if (s.width - width).abs() < 1e-9 => Some(pts.clone()),
            _ => None,
        })
        .collect()
}

/// Filled rectangles (bars) in drawing order.
pub fn rects(scene: &Scene) -> Vec<(Bx, artifact::color::Color)> {
    scene
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Rect {
                x,
                y,
                w,
                h,
                fill: Some(f),
                ..
            } => Some((
                Bx {
                    x0: *x,
                    y0: *y,
                    x1: x + w,
                    y1: y + h,
                },
                *f,
            )),
            _ => None,
        })
        .collect()
}

/// Figure `name` of the spec in `dir`, compiled and laid out.
pub fn plot_of(dir: &Path, name: &str) -> Plot {
    let spec = artifact::spec::load(&dir.join("artifact.toml")).unwrap();
    let plan = artifact::plan::Plan::compile(&spec).unwrap();
    let cat = artifact::tables::Catalog::new(&plan).unwrap();
    let (_, globals): (_, Arc<_>) = artifact::numbers::compute(&spec, &cat, &|_, _| None);
    match compile(&plan.figures[name], &cat, &globals).unwrap() {
        Outcome::Drawn(f) => f.plot,
        Outcome::Skipped(why) => panic!("{name} skipped: {why}"),
    }
}

/// Checks that labels sit by their own markers: label `i` belongs to
/// marker `i`. With a leader (a `leader_width` path ending on the label's
/// box) its other end must lie on the own marker's edge; without, the own
/// marker must be the nearest to the box. No label covers a marker, a path
/// in `lines`, or another label; leaders do not cross.
pub fn assert_labels_by_markers(
    labels: &[Label],
    marks: &[Bx],
    leaders: &[Vec<(f64, f64)>],
    lines: &[Vec<(f64, f64)>],
) {
    for (i, l) in labels.iter().enumerate() {
        let leader = leaders
            .iter()
            .find(|ld| l.bx.dist(*ld.last().unwrap()) < 0.01);
        let near = match leader {
            Some(ld) => {
                let start = ld[0];
                (0..marks.len())
                    .min_by(|a, b| {
                        let da =
                            (marks[*a].centre().0 - start.0).hypot(marks[*a].centre().1 - start.1);
                        let db =
                            (marks[*b].centre().0 - start.0).hypot(marks[*b].centre().1 - start.1);
                        da.total_cmp(&db)
                    })
                    .unwrap()
            }
            None => (0..marks.len())
                .min_by(|a, b| {
                    l.bx.dist(marks[*a].centre())
                        .total_cmp(&l.bx.dist(marks[*b].centre()))
                })
                .unwrap(),
        };
        assert_eq!(
            near, i,
            "label `{}` reads as marker {near}'s, not its own ({i}); leader {leader:?}",
            l.text
        );
        let inner = l.bx.shrink(0.3);
        for (j, m) in marks.iter().enumerate() {
            assert!(!inner.overlaps(m), "label `{}` covers marker {j}", l.text);
        }
        for line in lines {
            for w in line.windows(2) {
                assert!(
                    !inner.hit_by(w[0], w[1]),
                    "a line strikes label `{}`",
                    l.text
                );
            }
        }
        for o in &labels[i + 1..] {
            assert!(
                !inner.overlaps(&o.bx),
                "labels `{}` and `{}` overlap",
                l.text,
                o.text
            );
        }
    }
    for (a, la) in leaders.iter().enumerate() {
        for lb in &leaders[a + 1..] {
            assert!(
                !cross(la[0], la[1], lb[0], lb[1]),
                "leaders {la:?} and {lb:?} cross"
            );
        }
    }
}

fn cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let o = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    o(c, d, a) * o(c, d, b) < -1e-9 && o(a, b, c) * o(a, b, d) < -1e-9
}
