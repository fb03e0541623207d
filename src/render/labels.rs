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

use super::geometry::{Area, clip_segment};
use super::place::{block_area, text_anchor, text_area};
use crate::figures::model::{Align, TextItem};

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

/// Penalty for a label nearer another marker than its own without a leader.
const AMBIGUOUS: f64 = 60.0;

/// One candidate spot for a label.
#[derive(Debug, Clone)]
struct Cand {
    pos: (f64, f64, Align),
    bbox: Area,
    /// Beyond the first ring: drawn with a leader.
    far: bool,
    /// Points beyond the first ring (0 close in).
    dist: f64,
}

/// A label's own markers, their radius and its candidate spots: the
/// asked-for one, then rings at growing distances (8 directions close in,
/// 16 then 24 further out), each starting north-east (matplotlib's habit of
/// labelling up and right) and alternating around the circle.
struct Candidates {
    own: Vec<usize>,
    r: f64,
    list: Vec<Cand>,
    /// Per candidate, what it meets apart from the other labels (worked out
    /// when first scored).
    fixed: Vec<std::cell::OnceCell<Fixed>>,
}

impl Candidates {
    /// What candidate `ki` meets apart from the other labels.
    fn fixed(&self, ki: usize, l: &Label, area: &Area, obs: &Obstacles) -> &Fixed {
        self.fixed[ki].get_or_init(|| Fixed::of(l, self, &self.list[ki], area, obs))
    }

    fn of(l: &Label, obs: &Obstacles) -> Candidates {
        let t = l.item;
        let p = l.anchor;
        let own = own_markers(obs, p);
        let r = own
            .iter()
            .map(|&i| obs.markers[i].w().max(obs.markers[i].h()) / 2.0)
            .fold(1.0, f64::max);
        // (Measured once: every candidate has the same block.)
        let block = crate::font::block(&t.text, t.size);
        let boxed = |pos: (f64, f64, Align), far: bool, dist: f64| Cand {
            bbox: block_area(block, pos.0, pos.1, pos.2),
            pos,
            far,
            dist,
        };
        let mut list = vec![boxed(text_anchor(t, p), false, 0.0)];
        let first = r + 1.5;
        let rings = [
            first,
            r + 4.0,
            r + 8.0,
            r + 13.0,
            r + 19.0,
            r + 26.0,
            r + 34.0,
            r + 44.0,
            r + 56.0,
            r + 70.0,
            r + 88.0,
            r + 110.0,
        ];
        for (k, d) in rings.into_iter().enumerate() {
            let n: usize = match k {
                0 | 1 => 8,
                2..=4 => 16,
                _ => 24,
            };
            let step = std::f64::consts::TAU / n as f64;
            for j in 0..n {
                let half = j.div_ceil(2) as f64 * if j % 2 == 1 { -1.0 } else { 1.0 };
                let angle = std::f64::consts::FRAC_PI_4 + half * step;
                list.push(boxed(around(block.1, p, d, angle), k > 0, d - first));
            }
        }
        let fixed = list.iter().map(|_| std::cell::OnceCell::new()).collect();
        Candidates {
            own,
            r,
            list,
            fixed,
        }
    }
}

/// The cheapest candidate given what is `taken` and the `leaders` drawn;
/// with `first_free`, the first free one at once.
fn choose(
    l: &Label,
    c: &Candidates,
    area: &Area,
    obs: &Obstacles,
    taken: &[(Area, &str)],
    leaders: &[Seg],
    first_free: bool,
) -> (f64, Placed) {
    let mut best: Option<(f64, Placed)> = None;
    for ki in 0..c.list.len() {
        // The other labels only add to a candidate's cost: one whose fixed
        // part already costs more than the best cannot win (the margin
        // covers the rounding of adding the same terms in another order).
        if let Some((bc, _)) = &best
            && c.fixed(ki, l, area, obs).floor > bc + 1e-6
        {
            continue;
        }
        let (cost, placed) = score(l, c, ki, area, obs, taken, leaders, false);
        if first_free && cost < 1.0 {
            return (cost, placed);
        }
        if best.as_ref().is_none_or(|(bc, _)| cost < *bc) {
            best = Some((cost, placed));
        }
    }
    best.expect("at least the asked-for candidate")
}

/// What a candidate meets that does not depend on the other labels: the
/// plot's edge, markers, lines, and its leader (computed once per
/// candidate, not once per try: the search scores each candidate many
/// times against different placements of the others).
#[derive(Debug, Clone)]
struct Fixed {
    padded: Area,
    edge: bool,
    markers: usize,
    lines: usize,
    ambiguous: bool,
    /// The leader worked out (a far or ambiguous label) and the start's
    /// fraction of the marker's radius (`None`: no clear start).
    worked: Option<(Seg, Option<f64>)>,
    /// The leader drawn.
    leader: Option<Seg>,
    /// The leader crosses a neighbour overlapping its own marker.
    over: bool,
    /// The leader passes through another marker.
    through: bool,
    /// The least cost the candidate can have: its penalties that do not
    /// depend on the other labels.
    floor: f64,
}

impl Fixed {
    fn of(l: &Label, c: &Candidates, k: &Cand, area: &Area, obs: &Obstacles) -> Fixed {
        let p = l.anchor;
        let (own, r) = (&c.own, c.r);
        let bbox = k.bbox;
        let padded = grow(&bbox, PAD);
        let edge = !area.contains(&bbox);
        let markers = obs
            .markers
            .iter()
            .filter(|m| padded.overlap(m) > 0.0)
            .count();
        let lines = obs.lines.iter().filter(|ln| line_hits(ln, &padded)).count();
        // A label about as near another marker as its own reads as that
        // one's: the own marker must be clearly the nearest.
        let own_d = dist_to(p, &bbox);
        let ambiguous = obs
            .markers
            .iter()
            .enumerate()
            .any(|(mi, m)| !own.contains(&mi) && dist_to(centre(m), &bbox) < 1.5 * own_d + 2.0);
        let worked = (k.far || ambiguous).then(|| leader_from(p, r, &bbox, own, obs));
        let leader = match worked {
            Some((ld, _)) if (ld.1.0 - ld.0.0).hypot(ld.1.1 - ld.0.1) < 1.0 && !ambiguous => None,
            Some((ld, _)) => Some(ld),
            None => None,
        };
        let (mut over, mut through) = (false, false);
        if let Some(ld) = leader {
            // A marker overlapping its own cannot always be cleared; the
            // start's check says whose the leader is.
            let own_box = own.first().map(|&i| obs.markers[i]);
            let is_over = |mi: usize, m: &Area| {
                !own.contains(&mi) && own_box.is_some_and(|o| o.overlap(m) > 0.0)
            };
            over = obs
                .markers
                .iter()
                .enumerate()
                .any(|(mi, m)| is_over(mi, m) && line_hits(&[ld.0, ld.1], m));
            through = obs.markers.iter().enumerate().any(|(mi, m)| {
                !own.contains(&mi) && !is_over(mi, m) && line_hits(&[ld.0, ld.1], m)
            });
        }
        let wrong = worked.is_some_and(|(_, t)| t.is_none());
        let floor = k.dist * 2.0
            + HARD * (edge as usize + markers + lines) as f64
            + worked.map_or(0.0, |(_, t)| 20.0 * (1.0 - t.unwrap_or(0.0)))
            + if ambiguous && !k.far { AMBIGUOUS } else { 0.0 }
            + match leader {
                Some(_) => {
                    3.0 + if over { 40.0 } else { 0.0 }
                        + HARD / 2.0 * (through as usize + wrong as usize) as f64
                }
                None => 0.0,
            };
        Fixed {
            padded,
            edge,
            markers,
            lines,
            ambiguous,
            worked,
            leader,
            over,
            through,
            floor,
        }
    }
}

/// A candidate's cost and placement: a large penalty for every marker (its
/// own too), line, leader, label, legend or fixed text it touches and for
/// leaving the plot; a leader that crosses another, passes through a marker
/// or text, or starts nearer another marker's centre than its own is a
/// conflict too; a small cost for distance. With `explain`, the placement
/// names what it touches (else its `conflicts` stay empty: the search only
/// compares costs). The penalties are added in one fixed order, so equal
/// inputs give bit-equal costs.
#[allow(clippy::too_many_arguments)]
fn score(
    l: &Label,
    c: &Candidates,
    ki: usize,
    area: &Area,
    obs: &Obstacles,
    taken: &[(Area, &str)],
    leaders: &[Seg],
    explain: bool,
) -> (f64, Placed) {
    let k = &c.list[ki];
    let f = c.fixed(ki, l, area, obs);
    let padded = f.padded;
    let mut cost = k.dist * 2.0;
    let mut conflicts = Vec::new();
    let mut say = |what: &dyn Fn() -> String| {
        if explain {
            conflicts.push(what());
        }
    };
    if f.edge {
        cost += HARD;
        say(&|| "the plot's edge".to_string());
    }
    for _ in 0..f.markers {
        cost += HARD;
    }
    if f.markers > 0 {
        say(&|| "a marker".to_string());
    }
    for _ in 0..f.lines {
        cost += HARD;
    }
    let mut hits_line = f.lines > 0;
    for ld in leaders {
        if line_hits(&[ld.0, ld.1], &padded) {
            cost += HARD;
            hits_line = true;
        }
    }
    if hits_line {
        say(&|| "a line".to_string());
    }
    for (b, name) in taken {
        if padded.overlap(b) > 0.0 {
            cost += HARD;
            say(&|| match name.is_empty() {
                true => "a text".to_string(),
                false => format!("`{name}`"),
            });
        }
    }
    if let Some((_, t)) = f.worked {
        // A start inside the marker is clear but less tidy than its edge.
        cost += 20.0 * (1.0 - t.unwrap_or(0.0));
    }
    if f.ambiguous && !k.far {
        // Worse than a long leader: the reader would pick the wrong point
        // (a far label's leader says whose it is).
        cost += AMBIGUOUS;
    }
    if let Some(ld) = f.leader {
        cost += 3.0;
        if leaders.iter().any(|o| segments_cross(ld, *o)) {
            cost += HARD / 2.0;
            say(&|| "a leader".to_string());
        }
        if f.over {
            // Crossing a neighbour that overlaps its own marker reads as
            // that neighbour's: avoid it where another way is free.
            cost += 40.0;
        }
        if f.through || taken.iter().any(|(b, _)| line_hits(&[ld.0, ld.1], b)) {
            cost += HARD / 2.0;
            say(&|| "a leader through a marker or text".to_string());
        }
        if f.worked.is_some_and(|(_, t)| t.is_none()) {
            cost += HARD / 2.0;
            say(&|| "a leader that starts nearer another marker".to_string());
        }
    }
    let placed = Placed {
        x: k.pos.0,
        top: k.pos.1,
        align: k.pos.2,
        bbox: k.bbox,
        leader: f.leader,
        conflicts,
        cand: ki,
    };
    (cost, placed)
}

/// Draws placed labels and their leaders; a label that still touches
/// something becomes a note naming it and what it touches.
pub fn draw(
    out: &mut Vec<super::scene::Prim>,
    notes: &mut Vec<String>,
    labels: &[Label],
    placed: &[Option<Placed>],
) {
    use super::scene::{Prim, Stroke};
    for (l, p) in labels.iter().zip(placed) {
        let Some(p) = p else { continue };
        if let Some((a, b)) = p.leader {
            out.push(Prim::Path {
                pts: vec![a, b],
                closed: false,
                fill: None,
                stroke: Some(Stroke {
                    color: crate::color::Color::rgb(0x88, 0x88, 0x88),
                    width: 0.4,
                    dash: None,
                }),
            });
        }
        let t = l.item;
        super::layout::push_text(out, p.x, p.top, &t.text, t.size, t.color, p.align);
        if !p.conflicts.is_empty() {
            let mut what = p.conflicts.clone();
            what.dedup();
            notes.push(format!(
                "label `{}` could not be placed clear of {}",
                t.text,
                what.join(", ")
            ));
        }
    }
}

/// Line end labels: right of their points, moved apart vertically (in the
/// points' order) so none overlaps the next, kept inside the plot's height.
/// Draws them and returns their boxes.
pub fn draw_end_labels(
    out: &mut Vec<super::scene::Prim>,
    items: &[(&TextItem, (f64, f64))],
    area: &Area,
) -> Vec<Area> {
    let mut spots: Vec<(usize, f64, f64)> = items
        .iter()
        .enumerate()
        .map(|(i, (t, p))| {
            let (_, top, _) = text_anchor(t, *p);
            let (_, h) = crate::font::block(&t.text, t.size);
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
        super::layout::push_text(out, x, top, &t.text, t.size, t.color, align);
        boxes.push(text_area(&t.text, t.size, x, top, align));
    }
    boxes
}

/// Grows an axis's domain so that `lo` points at its low end and `hi` at
/// its high end are added inside a `len`-point axis (in log10 space for a
/// log axis).
/// The axis's scale (linear, log or symlog), whose forward map places a
/// value as layout's `Scale` does.
fn scale_kind(axis: &crate::figures::model::Axis) -> crate::figures::scales::ScaleKind {
    use crate::figures::scales::ScaleKind;
    match (axis.log, axis.symlog) {
        (true, _) => ScaleKind::Log,
        (false, Some(c)) => ScaleKind::Symlog(c),
        (false, None) => ScaleKind::Linear,
    }
}

fn grow_axis(axis: &mut crate::figures::model::Axis, len: f64, lo: f64, hi: f64) {
    let (lo, hi) = (lo.max(0.0), hi.max(0.0));
    if lo + hi <= 0.01 || lo + hi > 0.5 * len {
        return;
    }
    let k = scale_kind(axis);
    let (f, g) = (|v: f64| k.forward(v), |t: f64| k.inverse(t));
    let (t0, t1) = (f(axis.domain.0), f(axis.domain.1));
    let span = (t1 - t0) * len / (len - lo - hi);
    axis.domain = (g(t0 - lo * span / len), g(t1 + hi * span / len));
}

/// A copy of the panel whose axes leave room for its fixed texts (bar value
/// labels, line end labels) that would otherwise stick out of the plot, or
/// `None` when all fit.
pub fn fit_texts(
    p: &crate::figures::model::Panel,
    area: &Area,
) -> Option<crate::figures::model::Panel> {
    use crate::figures::model::Mark;
    let mut q = p.clone();
    let mut changed = false;
    for _ in 0..3 {
        let map = |axis: &crate::figures::model::Axis, v: f64, p0: f64, p1: f64| {
            let k = scale_kind(axis);
            let f = |v: f64| k.forward(v);
            let (p0, p1) = if axis.reverse { (p1, p0) } else { (p0, p1) };
            let (d0, d1) = (f(axis.domain.0), f(axis.domain.1));
            p0 + (f(v) - d0) / (d1 - d0) * (p1 - p0)
        };
        // Overflow in points beyond each edge.
        let (mut left, mut right, mut top, mut bottom) = (0f64, 0f64, 0f64, 0f64);
        for m in &q.layers {
            let items = match m {
                Mark::Texts {
                    items,
                    avoid_overlap: false,
                } => items,
                Mark::EndLabels(items) => items,
                _ => continue,
            };
            for t in items {
                let ax = map(&q.x, t.x, area.x0, area.x1);
                let ay = map(&q.y, t.y, area.y1, area.y0);
                if !(ax >= area.x0 - 0.5
                    && ax <= area.x1 + 0.5
                    && ay >= area.y0 - 0.5
                    && ay <= area.y1 + 0.5)
                {
                    continue;
                }
                let (x, y, al) = text_anchor(t, (ax, ay));
                let b = text_area(&t.text, t.size, x, y, al);
                // Sticking out by any amount: make room for it and 1 pt more.
                let over = |d: f64| if d > 1e-9 { d + 1.0 } else { 0.0 };
                left = left.max(over(area.x0 - b.x0));
                right = right.max(over(b.x1 - area.x1));
                top = top.max(over(area.y0 - b.y0));
                bottom = bottom.max(over(b.y1 - area.y1));
            }
        }
        if left.max(right).max(top).max(bottom) <= 0.01 {
            break;
        }
        // The low end of x is at the left unless reversed; of y at the bottom.
        let (xl, xh) = if q.x.reverse {
            (right, left)
        } else {
            (left, right)
        };
        let (yl, yh) = if q.y.reverse {
            (top, bottom)
        } else {
            (bottom, top)
        };
        grow_axis(&mut q.x, area.w(), xl, xh);
        grow_axis(&mut q.y, area.h(), yl, yh);
        changed = true;
    }
    changed.then_some(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::figures::model::{Axis, Baseline};

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

    #[test]
    fn grow_axis_adds_exactly_the_asked_points() {
        let mut a = Axis {
            title: None,
            log: false,
            domain: (0.0, 10.0),
            ticks: None,
            reverse: false,
            tick_font_size: 10.0,
            labels: true,
            symlog: None,
            format: None,
            label_angle: None,
        };
        // 100 points long, 10 more at the top: the old span takes 90.
        grow_axis(&mut a, 100.0, 0.0, 10.0);
        assert!((a.domain.0 - 0.0).abs() < 1e-12);
        assert!((a.domain.1 - 100.0 / 9.0).abs() < 1e-12);
    }
}
