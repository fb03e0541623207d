//! Texts on marks: a legend, a value label, a point label, an annotation
//! or a title whose box lies on a bar, an error bar, a line, a rule, an
//! area or a point, as the scene draws them ([`Scene::marks`]).

use std::collections::HashMap;

use super::super::geometry::Area;
use super::super::scene::{MarkShape, Scene, Shape, polyline_hits};
use super::{bounds, text_boxes};

/// How near (points) a text's box may come to a mark before it touches it:
/// half a point, so a box at 0 pt clearance is on the mark.
pub const TOUCH: f64 = 0.5;

/// Past this much work (segments and polygon vertices tested)
/// [`text_on_marks`] stops looking, and says so.
pub const MAX_WORK: usize = 5_000_000;

/// A text, or a legend, that lies on marks.
#[derive(Debug, Clone, PartialEq)]
pub struct OnMarks {
    /// The text, or `the legend`.
    pub text: String,
    /// Whether it is a legend's box (its own texts are not listed).
    pub legend: bool,
    /// How many marks of each kind it covers, kinds in the order drawn.
    pub covered: Vec<(&'static str, usize)>,
}

impl OnMarks {
    /// How many marks it covers.
    pub fn count(&self) -> usize {
        self.covered.iter().map(|(_, n)| n).sum()
    }
}

/// What `covered` lists, in words: `45 bars and an error bar`.
pub fn describe(covered: &[(&str, usize)]) -> String {
    let parts: Vec<String> = covered
        .iter()
        .map(|&(kind, n)| match n {
            1 if kind.starts_with(['a', 'e', 'i', 'o', 'u']) => format!("an {kind}"),
            1 => format!("a {kind}"),
            n => format!("{n} {kind}s"),
        })
        .collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What a box laid over the marks is: it decides whether a bar or band
/// that wholly holds the box counts as covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Over {
    /// A text: a bar or band that wholly holds it is its own ground (a
    /// cell's value, a label inside its bar or its shaded range).
    Text,
    /// A legend: it hides whatever it lies on, a bar around it too.
    Legend,
}

/// How many of `marks` of each kind the box `a` comes within `clear`
/// points of (kinds in first-drawn order): [`MarkIndex::covered`] for one
/// box.
pub fn covered(
    a: &Area,
    marks: &[MarkShape],
    clear: f64,
    over: Over,
) -> Vec<(&'static str, usize)> {
    MarkIndex::new(marks).covered(a, clear, over)
}

/// Whether `m` is the text's own ground, not a mark it covers: a bar or
/// band that wholly holds the box `a` (a cell's value, a label inside its
/// bar or its shaded range), or the wedge its box is centred in (a pie's
/// label: its font box may graze the wedge's sides; a neighbour it
/// reaches still counts).
fn holds(m: &MarkShape, a: &Area) -> bool {
    match m.kind {
        "bar" | "band" => m.shape.holds(a),
        "wedge" => {
            let (cx, cy) = ((a.x0 + a.x1) / 2.0, (a.y0 + a.y1) / 2.0);
            m.shape.holds(&Area {
                x0: cx,
                y0: cy,
                x1: cx,
                y1: cy,
            })
        }
        _ => false,
    }
}

/// A piece of a mark for the index: a polyline's segment (`seg`: its
/// first vertex), or a whole box or polygon. It borrows its geometry from
/// the mark: a line of 10⁶ vertices is not copied segment by segment.
struct Piece {
    mark: usize,
    seg: Option<usize>,
    bbox: Area,
}

impl Piece {
    fn hits(&self, marks: &[MarkShape], a: &Area, clear: f64) -> bool {
        match (self.seg, &marks[self.mark].shape) {
            (Some(j), Shape::Polyline(pts, half)) => polyline_hits(&pts[j..j + 2], *half, a, clear),
            (_, shape) => shape.hits(a, clear),
        }
    }
}

fn pieces(marks: &[MarkShape]) -> Vec<Piece> {
    let mut out = Vec::new();
    for (i, m) in marks.iter().enumerate() {
        match &m.shape {
            Shape::Polyline(pts, half) if pts.len() > 2 => {
                for (j, w) in pts.windows(2).enumerate() {
                    out.push(Piece {
                        mark: i,
                        seg: Some(j),
                        bbox: grow(&bounds(w), *half),
                    });
                }
            }
            s => {
                let bbox = match s {
                    Shape::Box(b) => *b,
                    Shape::Polyline(pts, half) => grow(&bounds(pts), *half),
                    Shape::Polygon(pts) => bounds(pts),
                };
                out.push(Piece {
                    mark: i,
                    seg: None,
                    bbox,
                });
            }
        }
    }
    out
}

fn grow(a: &Area, d: f64) -> Area {
    Area {
        x0: a.x0 - d,
        y0: a.y0 - d,
        x1: a.x1 + d,
        y1: a.y1 + d,
    }
}

/// Grid cells (points) of the index.
const CELL: f64 = 16.0;
/// A piece or box over more cells than this is not put in cells: it is
/// tested against every box (a piece) or against every piece (a box).
const MAX_CELLS: i64 = 256;

fn cells(a: &Area) -> Option<(i64, i64, i64, i64)> {
    let c = |v: f64| (v / CELL).floor().clamp(-1e9, 1e9) as i64;
    let finite = a.x0.is_finite() && a.x1.is_finite() && a.y0.is_finite() && a.y1.is_finite();
    finite.then(|| (c(a.x0), c(a.x1), c(a.y0), c(a.y1)))
}

/// Marks cut into pieces (a polyline into its segments) in a grid of
/// [`CELL`]-point cells, so that finding the marks near a box looks at the
/// pieces near it only. Every look-up counts its work (pieces gathered
/// and tested, polygon vertices); past [`MAX_WORK`] the index answers no more
/// ([`MarkIndex::exhausted`]), so time stays bounded on any figure.
pub struct MarkIndex<'m> {
    marks: &'m [MarkShape],
    pieces: Vec<Piece>,
    grid: HashMap<(i64, i64), Vec<usize>>,
    big: Vec<usize>,
    work: std::cell::Cell<usize>,
}

impl<'m> MarkIndex<'m> {
    /// The index of `marks` (as [`Scene::marks`] holds them).
    pub fn new(marks: &'m [MarkShape]) -> Self {
        let pieces = pieces(marks);
        let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        let mut big = Vec::new();
        for (i, p) in pieces.iter().enumerate() {
            let Some((x0, x1, y0, y1)) = cells(&p.bbox) else {
                continue;
            };
            if (x1 - x0 + 1).saturating_mul(y1 - y0 + 1) > MAX_CELLS {
                big.push(i);
                continue;
            }
            for cx in x0..=x1 {
                for cy in y0..=y1 {
                    grid.entry((cx, cy)).or_default().push(i);
                }
            }
        }
        MarkIndex {
            marks,
            pieces,
            grid,
            big,
            work: std::cell::Cell::new(0),
        }
    }

    /// Starts a new work budget: each stage of a panel's layout (moving
    /// fixed texts, placing the legend) has its own.
    pub fn reset(&self) {
        self.work.set(0);
    }

    /// Whether the look-ups have done [`MAX_WORK`]: later ones find nothing.
    pub fn exhausted(&self) -> bool {
        self.work.get() > MAX_WORK
    }

    /// The marks (indices into the indexed slice, ascending) that come
    /// within `clear` points of the box `a` (for a text, but a bar or band
    /// that wholly holds it).
    pub fn hit(&self, a: &Area, clear: f64, over: Over) -> Vec<usize> {
        if self.exhausted() {
            return Vec::new();
        }
        let q = grow(a, clear);
        let mut cand = Vec::new();
        if let Some((x0, x1, y0, y1)) = cells(&q) {
            if (x1 - x0 + 1).saturating_mul(y1 - y0 + 1) > MAX_CELLS {
                cand.extend(0..self.pieces.len());
            } else {
                for cx in x0..=x1 {
                    for cy in y0..=y1 {
                        cand.extend(self.grid.get(&(cx, cy)).into_iter().flatten());
                    }
                }
                cand.extend(&self.big);
            }
        }
        // Gathering counts too: many marks on one spot fill the same cells.
        self.work.set(self.work.get() + cand.len());
        cand.sort_unstable();
        cand.dedup();
        let mut hit: Vec<usize> = Vec::new();
        for i in cand {
            if self.exhausted() {
                break;
            }
            let p = &self.pieces[i];
            let w = match (&self.marks[p.mark].shape, p.seg) {
                (Shape::Polygon(pts), None) => pts.len(),
                _ => 1,
            };
            self.work.set(self.work.get() + w);
            // A mark's pieces are next to each other: one hit is enough.
            if hit.last() != Some(&p.mark)
                && !(over == Over::Text && holds(&self.marks[p.mark], a))
                && p.hits(self.marks, a, clear)
            {
                hit.push(p.mark);
            }
        }
        hit
    }

    /// How many marks of each kind come within `clear` points of the box
    /// `a` (kinds in first-drawn order), as [`MarkIndex::hit`] finds them.
    pub fn covered(&self, a: &Area, clear: f64, over: Over) -> Vec<(&'static str, usize)> {
        let mut out: Vec<(&'static str, usize)> = Vec::new();
        for m in self.hit(a, clear, over) {
            let kind = self.marks[m].kind;
            match out.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, n)) => *n += 1,
                None => out.push((kind, 1)),
            }
        }
        out
    }
}

/// Every text of `scene` (each legend as one box; a legend's own texts are
/// part of it) that lies within [`TOUCH`] of a mark, in drawing order, the
/// legends last; and whether the search stopped early ([`MAX_WORK`]).
/// Marks are looked up in a [`MarkIndex`], so the time is about linear in
/// texts and marks.
pub fn text_on_marks(scene: &Scene) -> (Vec<OnMarks>, bool) {
    let index = MarkIndex::new(&scene.marks);
    let in_legend = |a: &Area| {
        scene.legends.iter().any(|l| {
            a.x0 >= l.x0 - 0.5 && a.x1 <= l.x1 + 0.5 && a.y0 >= l.y0 - 0.5 && a.y1 <= l.y1 + 0.5
        })
    };
    let texts = text_boxes(scene)
        .into_iter()
        .filter(|(t, a)| !t.trim().is_empty() && !in_legend(a))
        .map(|(t, a)| (t.to_string(), a, false))
        .chain(
            scene
                .legends
                .iter()
                .map(|l| ("the legend".to_string(), *l, true)),
        );
    let mut out = Vec::new();
    for (text, a, legend) in texts {
        let over = if legend { Over::Legend } else { Over::Text };
        let covered = index.covered(&a, TOUCH, over);
        if !covered.is_empty() {
            out.push(OnMarks {
                text,
                legend,
                covered,
            });
        }
        if index.exhausted() {
            return (out, true);
        }
    }
    (out, false)
}

#[cfg(test)]
mod tests {
    use super::super::problems;
    use super::*;
    use crate::color::Color;
    use crate::figures::model::Align;
    use crate::render::scene::Prim;

    fn text(x: f64, y: f64, s: &str) -> Prim {
        Prim::Text {
            x,
            y,
            text: s.into(),
            size: 8.0,
            color: Color::BLACK,
            align: Align::Left,
            vertical: false,
        }
    }

    fn bar(x0: f64, y0: f64, x1: f64, y1: f64) -> MarkShape {
        MarkShape {
            kind: "bar",
            shape: Shape::Box(Area { x0, y0, x1, y1 }),
        }
    }

    #[test]
    fn describe_names_counts_in_words() {
        assert_eq!(describe(&[("rule", 2), ("bar", 84)]), "2 rules and 84 bars");
        assert_eq!(describe(&[("error bar", 1)]), "an error bar");
        assert_eq!(
            describe(&[("bar", 1), ("line", 2), ("area", 1)]),
            "a bar, 2 lines and an area"
        );
    }

    /// labels/speedup_bars: the dashed y = 1 rule ran through "0.8×"; a
    /// cell's value inside its cell is its own, not on it.
    #[test]
    fn a_rule_through_a_label_is_found_but_not_a_cells_own_value() {
        let scene = Scene {
            width: 200.0,
            height: 100.0,
            prims: vec![
                text(20.0, 40.0, "0.8×"),
                text(110.0, 40.0, "12"),
                text(110.0, 50.0, "7"),
            ],
            marks: vec![
                MarkShape {
                    kind: "rule",
                    shape: Shape::Polyline(vec![(0.0, 44.0), (200.0, 44.0)], 0.4),
                },
                bar(100.0, 30.0, 150.0, 60.0),
            ],
            ..Scene::default()
        };
        let (on, stopped) = text_on_marks(&scene);
        assert!(!stopped);
        // "12" and "7" lie in their cell; the rule crosses "12" too.
        assert_eq!(
            on.iter()
                .map(|o| (o.text.as_str(), o.count()))
                .collect::<Vec<_>>(),
            [("0.8×", 1), ("12", 1)]
        );
        assert_eq!(
            problems(&scene),
            ["text \"0.8×\" lies on a rule", "text \"12\" lies on a rule"]
        );
    }

    /// A legend's own texts lie inside its box: only the box counts, and
    /// `problems` leaves it to layout's note, which names the position.
    #[test]
    fn a_legend_counts_once_by_its_box() {
        let scene = Scene {
            width: 200.0,
            height: 100.0,
            prims: vec![text(12.0, 12.0, "base")],
            legends: vec![Area {
                x0: 10.0,
                y0: 10.0,
                x1: 60.0,
                y1: 25.0,
            }],
            marks: vec![bar(20.0, 20.0, 30.0, 90.0), bar(40.0, 24.0, 50.0, 90.0)],
            ..Scene::default()
        };
        let (on, _) = text_on_marks(&scene);
        assert_eq!(on.len(), 1);
        assert!(on[0].legend);
        assert_eq!(on[0].covered, [("bar", 2)]);
        assert!(problems(&scene).is_empty());
    }

    /// fig4's shaded CI range is a band: a legend over it covers it, a
    /// text inside it is its own.
    #[test]
    fn a_band_is_covered_by_a_legend_but_holds_its_own_text() {
        let band = MarkShape {
            kind: "band",
            shape: Shape::Box(Area {
                x0: 100.0,
                y0: 0.0,
                x1: 140.0,
                y1: 100.0,
            }),
        };
        let marks = [band];
        let inside = Area {
            x0: 105.0,
            y0: 40.0,
            x1: 135.0,
            y1: 48.0,
        };
        let over = Area {
            x0: 120.0,
            y0: 5.0,
            x1: 190.0,
            y1: 30.0,
        };
        assert_eq!(covered(&inside, &marks, TOUCH, Over::Text), []);
        assert_eq!(covered(&over, &marks, TOUCH, Over::Legend), [("band", 1)]);
        // A legend inside the band still hides it.
        assert_eq!(covered(&inside, &marks, TOUCH, Over::Legend), [("band", 1)]);
    }

    /// 200,000 texts on one long line stay within the work budget.
    #[test]
    fn text_on_marks_of_200k_texts_on_a_long_line_is_bounded() {
        let line: Vec<(f64, f64)> = (0..100_000).map(|i| (i as f64, 50.0)).collect();
        let scene = Scene {
            width: 1e5,
            height: 100.0,
            prims: (0..200_000)
                .map(|i| text(i as f64 / 2.0, 46.0, "x"))
                .collect(),
            marks: vec![MarkShape {
                kind: "line",
                shape: Shape::Polyline(line, 0.5),
            }],
            ..Scene::default()
        };
        let (on, _) = text_on_marks(&scene);
        assert!(!on.is_empty() && on.len() <= 200_000);
        assert_eq!(on[0].covered, [("line", 1)]);
    }
}
