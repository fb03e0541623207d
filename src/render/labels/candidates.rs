//! A label's candidate spots and their costs: what the greedy search and
//! the repair sweeps of [`super::place_labels`] choose among.

use super::super::place::{block_area, text_anchor};
use super::{
    Area, HARD, Label, Obstacles, PAD, Placed, Seg, around, centre, dist_to, grow, leader_from,
    line_hits, own_markers, segments_cross,
};
use crate::figures::model::Align;

/// Penalty for a label nearer another marker than its own without a leader.
pub(super) const AMBIGUOUS: f64 = 60.0;

/// One candidate spot for a label.
#[derive(Debug, Clone)]
pub(super) struct Cand {
    pos: (f64, f64, Align),
    bbox: Area,
    /// Beyond the first ring: drawn with a leader.
    pub(super) far: bool,
    /// Points beyond the first ring (0 close in).
    dist: f64,
}

/// A label's own markers, their radius and its candidate spots: the
/// asked-for one, then rings at growing distances (8 directions close in,
/// 16 then 24 further out), each starting north-east (matplotlib's habit of
/// labelling up and right) and alternating around the circle.
pub(super) struct Candidates {
    own: Vec<usize>,
    r: f64,
    pub(super) list: Vec<Cand>,
    /// Per candidate, what it meets apart from the other labels (worked out
    /// when first scored).
    fixed: Vec<std::cell::OnceCell<Fixed>>,
}

impl Candidates {
    /// What candidate `ki` meets apart from the other labels.
    fn fixed(&self, ki: usize, l: &Label, area: &Area, obs: &Obstacles) -> &Fixed {
        self.fixed[ki].get_or_init(|| Fixed::of(l, self, &self.list[ki], area, obs))
    }

    pub(super) fn of(l: &Label, obs: &Obstacles) -> Candidates {
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
pub(super) fn choose(
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
pub(super) fn score(
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
