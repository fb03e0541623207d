//! Point labels that sit by their own markers (`avoid_overlap = true`).
//!
//! No maintained Rust crate places point labels on its own (ggrepel-style
//! repulsion lives inside whole plotting libraries), so this is a small
//! greedy search, deterministic by construction:
//!
//! 1. Labels are placed one at a time, the most constrained first (fewest
//!    free spots next to its marker), then the most crowded (most markers
//!    within 30 pt of its point), ties in input order.
//! 2. Each label tries its asked-for position (`dx`, `dy`, `align`), then
//!    rings of candidate boxes around its marker at increasing distances
//!    (8 directions close in, 16 then 24 further out, up to 110 pt).
//! 3. A candidate's cost adds a large penalty for every marker (its own
//!    too), line segment (lines, rules, error bars, other leaders), label,
//!    legend or fixed text it touches and for leaving the plot, and a small
//!    one for distance; the cheapest wins, the first free one at once.
//! 4. A label beyond the first ring, or nearer another marker than its own,
//!    gets a thin leader from its marker's edge to the box; a leader that
//!    would cross another leader, a marker or a label, or whose start lies
//!    nearer another marker's centre than its own, is a conflict too. Where
//!    markers overlap, the leader starts inside its own marker as far out as
//!    keeps its own centre the nearest.
//! 5. Repair: each label in turn moves to its cheapest spot given all the
//!    others, until a sweep moves none. Labels that fared badly go first in
//!    up to three more greedy rounds; the round with the least total cost
//!    is kept.
//!
//! What still touches something is returned as a conflict naming the texts,
//! which `gen` prints as a note.

mod candidates;
mod draw;
mod fit;

use super::geometry::{Area, clip_segment};
use crate::figures::model::{Align, TextItem};
use candidates::{AMBIGUOUS, Candidates, choose, score};
pub use draw::{draw, draw_end_labels};
pub use fit::fit_texts;

/// A straight segment in points: (from, to).
pub type Seg = ((f64, f64), (f64, f64));

/// Penalty for each hard conflict (overlap, crossing, outside the plot).
const HARD: f64 = 1.0e4;
/// Clearance kept around a label box, in points.
const PAD: f64 = 1.0;

/// A movable label to place.
#[derive(Debug, Clone)]
pub struct Label<'a> {
    /// The text, its size and asked-for offset.
    pub item: &'a TextItem,
    /// Its point, in points.
    pub anchor: (f64, f64),
}

/// What labels must keep clear of, in points.
#[derive(Debug, Clone, Default)]
pub struct Obstacles {
    /// Marker boxes (points, line vertex markers).
    pub markers: Vec<Area>,
    /// Polylines (lines, rules, error bars).
    pub lines: Vec<Vec<(f64, f64)>>,
    /// Boxes already taken (legend, fixed texts).
    pub boxes: Vec<Area>,
    /// Names of the taken boxes, for conflict notes (`legend`, a text).
    pub box_names: Vec<String>,
}

/// Where one label went.
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    /// Anchor x of the text.
    pub x: f64,
    /// Block top.
    pub top: f64,
    /// Alignment at `x`.
    pub align: Align,
    /// The text's box.
    pub bbox: Area,
    /// A leader from the marker's edge to the box, if one is drawn.
    pub leader: Option<Seg>,
    /// What the label still touches (empty when it is free).
    pub conflicts: Vec<String>,
    /// Which of its candidate spots it took (0: the asked-for one).
    pub cand: usize,
}

fn grow(a: &Area, d: f64) -> Area {
    Area {
        x0: a.x0 - d,
        y0: a.y0 - d,
        x1: a.x1 + d,
        y1: a.y1 + d,
    }
}

fn centre(a: &Area) -> (f64, f64) {
    ((a.x0 + a.x1) / 2.0, (a.y0 + a.y1) / 2.0)
}

/// Distance from `p` to the box (0 inside).
fn dist_to(p: (f64, f64), a: &Area) -> f64 {
    let dx = (a.x0 - p.0).max(0.0).max(p.0 - a.x1);
    let dy = (a.y0 - p.1).max(0.0).max(p.1 - a.y1);
    dx.hypot(dy)
}

fn cross(o: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
}

/// Whether two segments properly cross (touching ends do not count).
pub fn segments_cross(a: Seg, b: Seg) -> bool {
    let d1 = cross(b.0, b.1, a.0);
    let d2 = cross(b.0, b.1, a.1);
    let d3 = cross(a.0, a.1, b.0);
    let d4 = cross(a.0, a.1, b.1);
    d1 * d2 < -1e-9 && d3 * d4 < -1e-9
}

/// Whether a polyline passes through the box.
pub fn line_hits(pts: &[(f64, f64)], a: &Area) -> bool {
    if pts.len() == 1 {
        return dist_to(pts[0], a) == 0.0;
    }
    pts.windows(2)
        .any(|w| clip_segment(w[0], w[1], a).is_some_and(|(p, q)| p != q || dist_to(p, a) == 0.0))
}

/// A candidate box `d` points from `(ax, ay)` in direction `angle`
/// (radians, counter-clockwise from east; y grows downwards).
/// `h` is the text block's height (points).
fn around(h: f64, (ax, ay): (f64, f64), d: f64, angle: f64) -> (f64, f64, Align) {
    let (c, s) = (angle.cos(), angle.sin());
    let (px, py) = (ax + d * c, ay - d * s);
    let align = if c > 0.35 {
        Align::Left
    } else if c < -0.35 {
        Align::Right
    } else {
        Align::Center
    };
    let top = if s > 0.35 {
        py - h
    } else if s < -0.35 {
        py
    } else {
        py - h / 2.0
    };
    (px, top, align)
}

/// The marker boxes centred on `p` (the label's own markers).
fn own_markers(obs: &Obstacles, p: (f64, f64)) -> Vec<usize> {
    obs.markers
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            let c = centre(m);
            (c.0 - p.0).abs() < 0.5 && (c.1 - p.1).abs() < 0.5
        })
        .map(|(i, _)| i)
        .collect()
}

/// The leader from the marker's edge (radius `r` around `p`) to the box.
fn leader_of(p: (f64, f64), r: f64, b: &Area) -> Seg {
    let q = (p.0.clamp(b.x0, b.x1), p.1.clamp(b.y0, b.y1));
    let len = (q.0 - p.0).hypot(q.1 - p.1).max(1e-9);
    let from = (p.0 + (q.0 - p.0) / len * r, p.1 + (q.1 - p.1) / len * r);
    (from, q)
}

/// The leader for a label at `b` whose marker (radius `r`) is at `p`: from
/// the marker's edge, or nearer its centre where a marker overlapping it
/// would otherwise be nearer the start (the start says whose label it is).
/// Returns the leader and, when its start is clearly nearest `p`, the
/// start's distance from `p` as a fraction of `r`.
fn leader_from(
    p: (f64, f64),
    r: f64,
    b: &Area,
    own: &[usize],
    obs: &Obstacles,
) -> (Seg, Option<f64>) {
    let mut ld = leader_of(p, r, b);
    for t in [1.0, 0.75, 0.5, 0.25, 0.0] {
        ld = leader_of(p, r * t, b);
        let d_own = (ld.0.0 - p.0).hypot(ld.0.1 - p.1);
        let clear = obs.markers.iter().enumerate().all(|(mi, m)| {
            let q = centre(m);
            own.contains(&mi) || (ld.0.0 - q.0).hypot(ld.0.1 - q.1) >= d_own + 0.3
        });
        if clear {
            return (ld, Some(t));
        }
    }
    (ld, None)
}

/// Places `labels` inside `area`, clear of `obs` and of each other where
/// possible; returns one placement per label, in input order.
pub fn place_labels(labels: &[Label], area: &Area, obs: &Obstacles) -> Vec<Option<Placed>> {
    let crowd: Vec<usize> = labels
        .iter()
        .map(|l| {
            obs.markers
                .iter()
                .filter(|m| {
                    let c = centre(m);
                    (c.0 - l.anchor.0).hypot(c.1 - l.anchor.1) < 30.0
                })
                .count()
        })
        .collect();
    let base: Vec<(Area, &str)> = obs
        .boxes
        .iter()
        .cloned()
        .zip(
            obs.box_names
                .iter()
                .map(String::as_str)
                .chain(std::iter::repeat("")),
        )
        .collect();
    let cands: Vec<Candidates> = labels.iter().map(|l| Candidates::of(l, obs)).collect();
    // Most constrained first: the labels with the fewest free spots next to
    // their markers (before any label is placed) choose first.
    let free: Vec<usize> = labels
        .iter()
        .zip(&cands)
        .map(|(l, c)| {
            c.list
                .iter()
                .enumerate()
                .filter(|(_, k)| !k.far)
                .filter(|(ki, _)| score(l, c, *ki, area, obs, &base, &[], false).0 < 1.0)
                .count()
        })
        .collect();
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by(|a, b| {
        free[*a]
            .cmp(&free[*b])
            .then(crowd[*b].cmp(&crowd[*a]))
            .then(a.cmp(b))
    });
    // Greedy in that order; then, up to three more rounds, the labels that
    // fared badly (an ambiguous spot or a conflict) go first. The cheapest
    // round wins.
    let mut best: Option<(f64, Vec<Placed>)> = None;
    for _ in 0..4 {
        let mut out: Vec<Option<Placed>> = vec![None; labels.len()];
        let mut costs = vec![0.0; labels.len()];
        let mut taken = base.clone();
        let mut leaders: Vec<Seg> = Vec::new();
        for &i in &order {
            let l = &labels[i];
            let (cost, placed) = choose(l, &cands[i], area, obs, &taken, &leaders, true);
            taken.push((placed.bbox, l.item.text.as_str()));
            if let Some(ld) = placed.leader {
                leaders.push(ld);
            }
            costs[i] = cost;
            out[i] = Some(placed);
        }
        let out: Vec<Placed> = out.into_iter().flatten().collect();
        let (out, total) = repair(labels, &cands, area, obs, &base, out);
        if best.as_ref().is_none_or(|(b, _)| total < *b) {
            best = Some((total, out));
        }
        let bad: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| costs[i] >= AMBIGUOUS)
            .collect();
        if bad.is_empty() || total < 1.0 {
            break;
        }
        let rest: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| costs[i] < AMBIGUOUS)
            .collect();
        let next: Vec<usize> = bad.into_iter().chain(rest).collect();
        if next == order {
            break;
        }
        order = next;
    }
    best.map(|(_, out)| out.into_iter().map(Some).collect())
        .unwrap_or_default()
}

/// The boxes and leaders of every label but `i`.
fn others<'t>(
    base: &[(Area, &'t str)],
    labels: &[Label<'t>],
    placed: &[Placed],
    i: usize,
) -> (Vec<(Area, &'t str)>, Vec<Seg>) {
    let mut taken = base.to_vec();
    let mut leaders = Vec::new();
    for (j, p) in placed.iter().enumerate() {
        if j != i {
            taken.push((p.bbox, labels[j].item.text.as_str()));
            leaders.extend(p.leader);
        }
    }
    (taken, leaders)
}

/// Repair: each label in turn moves to its cheapest spot given all the
/// others (what it touches counts against both, so the total falls), until
/// a sweep moves none (at most eight sweeps). Conflicts are then recounted
/// against all other labels. Returns the placements and their total cost.
fn repair(
    labels: &[Label],
    cands: &[Candidates],
    area: &Area,
    obs: &Obstacles,
    base: &[(Area, &str)],
    mut placed: Vec<Placed>,
) -> (Vec<Placed>, f64) {
    for _ in 0..8 {
        let mut moved = false;
        for i in 0..labels.len() {
            let (taken, leaders) = others(base, labels, &placed, i);
            let now = score(
                &labels[i],
                &cands[i],
                placed[i].cand,
                area,
                obs,
                &taken,
                &leaders,
                false,
            )
            .0;
            if now < 1.0 {
                continue;
            }
            let (cost, p) = choose(&labels[i], &cands[i], area, obs, &taken, &leaders, false);
            if cost < now - 1e-6 {
                placed[i] = p;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    let mut total = 0.0;
    for i in 0..labels.len() {
        let (taken, leaders) = others(base, labels, &placed, i);
        let (cost, p) = score(
            &labels[i],
            &cands[i],
            placed[i].cand,
            area,
            obs,
            &taken,
            &leaders,
            true,
        );
        total += cost;
        placed[i] = p;
    }
    (placed, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::figures::model::Baseline;

    fn item(text: &str) -> TextItem {
        TextItem {
            x: 0.0,
            y: 0.0,
            text: text.into(),
            dx: 3.0,
            dy: 3.0,
            align: Align::Left,
            baseline: Baseline::Bottom,
            size: 8.0,
            color: Color::BLACK,
        }
    }

    fn plot_area() -> Area {
        Area {
            x0: 0.0,
            y0: 0.0,
            x1: 200.0,
            y1: 200.0,
        }
    }

    #[test]
    fn segments_cross_only_when_they_pass_through_each_other() {
        assert!(segments_cross(
            ((0.0, 0.0), (2.0, 2.0)),
            ((0.0, 2.0), (2.0, 0.0))
        ));
        assert!(!segments_cross(
            ((0.0, 0.0), (1.0, 1.0)),
            ((1.0, 1.0), (2.0, 0.0))
        ));
        assert!(!segments_cross(
            ((0.0, 0.0), (1.0, 0.0)),
            ((0.0, 1.0), (1.0, 1.0))
        ));
    }

    #[test]
    fn a_free_label_keeps_its_asked_for_place() {
        let t = item("a");
        let placed = place_labels(
            &[Label {
                item: &t,
                anchor: (100.0, 100.0),
            }],
            &plot_area(),
            &Obstacles::default(),
        );
        let p = placed[0].as_ref().unwrap();
        assert_eq!((p.x, p.top, p.align), (103.0, 89.0, Align::Left));
        assert!(p.leader.is_none() && p.conflicts.is_empty());
    }

    #[test]
    fn a_label_moves_off_a_line_through_its_asked_for_place() {
        let t = item("label");
        let obs = Obstacles {
            lines: vec![vec![(100.0, 95.0), (200.0, 95.0)]],
            ..Obstacles::default()
        };
        let l = Label {
            item: &t,
            anchor: (100.0, 100.0),
        };
        let p = place_labels(&[l], &plot_area(), &obs)[0].clone().unwrap();
        assert!(p.conflicts.is_empty());
        assert!(!line_hits(&obs.lines[0], &p.bbox));
    }

    /// fig5 at paper size: qb_k4/qb_k8/qb_k16 (Q4_K) are triangles less than
    /// a point apart, and a leader from qb_k8's edge started nearer qb_k4's
    /// centre than its own, so the label read as qb_k4's.
    #[test]
    fn leaders_of_nearly_coincident_markers_start_nearest_their_own() {
        let ts = [item("qb_k4"), item("qb_k8"), item("qb_k16")];
        let centres = [(106.6, 72.0), (105.9, 72.4), (104.0, 73.0)];
        let obs = Obstacles {
            markers: centres
                .iter()
                .map(|&(x, y)| Area {
                    x0: x - 4.7,
                    y0: y - 4.7,
                    x1: x + 4.7,
                    y1: y + 4.7,
                })
                .collect(),
            ..Obstacles::default()
        };
        let labels: Vec<Label> = ts
            .iter()
            .zip(centres)
            .map(|(t, c)| Label { item: t, anchor: c })
            .collect();
        let placed = place_labels(&labels, &plot_area(), &obs);
        let mut leaders = Vec::new();
        for (i, p) in placed.iter().enumerate() {
            let p = p.as_ref().unwrap();
            assert!(p.conflicts.is_empty(), "{:?}", p.conflicts);
            // The leader's start, else the box, is nearest its own centre.
            let near = |q: (f64, f64)| match p.leader {
                Some((s, _)) => (s.0 - q.0).hypot(s.1 - q.1),
                None => dist_to(q, &p.bbox),
            };
            let nearest = (0..3)
                .min_by(|a, b| near(centres[*a]).total_cmp(&near(centres[*b])))
                .unwrap();
            assert_eq!(nearest, i, "label {} reads as {nearest}'s", ts[i].text);
            leaders.extend(p.leader);
        }
        assert_eq!(leaders.len(), 3);
    }
}
