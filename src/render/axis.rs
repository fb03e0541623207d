//! An axis's ticks and how their labels fit: automatic numeric ticks are
//! thinned until their labels do not collide; explicit and categorical
//! labels that collide on a horizontal axis are wrapped at spaces and
//! underscores when that fits, else turned 45° or 90° (unless the axis has
//! a `labelAngle`). Also the word wrap of titles.

use super::lint::{bounds, turned_corners};
use crate::figures::model::{Align, Axis, Plot};
use crate::font as text;
use crate::ticks;

/// Gap between two level labels, in units of their size.
const LABEL_GAP: f64 = 0.4;

/// Ticks of one axis, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct TickSet {
    /// Major ticks: position in data units and label (may hold `\n`).
    pub major: Vec<(f64, String)>,
    /// Minor ticks (log axes).
    pub minor: Vec<f64>,
    /// Label rotation in degrees, clockwise (0 = level).
    pub angle: f64,
    /// The power of ten factored out of every label (`×10⁶`, matplotlib's
    /// offset text), drawn once at the axis's end: above a y axis, right
    /// of an x axis's labels.
    pub offset: Option<String>,
}

/// The fraction (0..1) of the axis length at `v`, before `reverse`.
fn frac(axis: &Axis, v: f64) -> f64 {
    let f = |v: f64| -> f64 {
        if axis.log {
            if v <= 0.0 {
                f64::NEG_INFINITY
            } else {
                v.log10()
            }
        } else if let Some(c) = axis.symlog {
            crate::figures::scales::symlog(v, c)
        } else {
            v
        }
    };
    let (a, b) = (f(axis.domain.0), f(axis.domain.1));
    (f(v) - a) / (b - a)
}

/// Positions in points along an axis `length` long (from its start).
fn positions(axis: &Axis, major: &[(f64, String)], length: f64) -> Vec<f64> {
    major.iter().map(|(v, _)| frac(axis, *v) * length).collect()
}

/// The box of a tick label relative to its anchor: (left, top, right,
/// bottom) offsets in points. Level labels on x hang centred below the
/// anchor; on y they end at it, centred vertically; turned labels turn
/// about it (text end at the anchor for negative angles on x).
pub fn label_box(label: &str, size: f64, angle: f64, vertical: bool) -> (f64, f64, f64, f64) {
    if angle == 0.0 {
        let (w, h) = text::block(label, size);
        return if vertical {
            (-w, -h / 2.0, 0.0, h / 2.0)
        } else {
            (-w / 2.0, 0.0, w / 2.0, h)
        };
    }
    let w = text::width(label, size);
    let align = label_align(angle, vertical);
    let b = bounds(&turned_corners(0.0, 0.0, w, size, align, angle));
    (b.x0, b.y0, b.x1, b.y1)
}

/// Which end of a turned label is at its tick.
pub fn label_align(angle: f64, vertical: bool) -> Align {
    if vertical || angle < 0.0 {
        Align::Right
    } else {
        Align::Left
    }
}

/// Whether level or turned labels at `pos` collide.
fn collide(labels: &[&str], pos: &[f64], size: f64, angle: f64, vertical: bool) -> bool {
    let mut idx: Vec<usize> = (0..pos.len()).collect();
    idx.sort_by(|a, b| pos[*a].total_cmp(&pos[*b]));
    idx.windows(2).any(|w| {
        let (i, j) = (w[0], w[1]);
        let gap = (pos[j] - pos[i]).abs();
        if vertical && angle == 0.0 {
            let hi = text::block(labels[i], size).1;
            let hj = text::block(labels[j], size).1;
            return (hi + hj) / 2.0 + 0.2 * size > gap;
        }
        if angle == 0.0 {
            let wi = text::block(labels[i], size).0;
            let wj = text::block(labels[j], size).0;
            return (wi + wj) / 2.0 + LABEL_GAP * size > gap;
        }
        // Turned labels are parallel strips one line tall.
        let s = angle.to_radians().sin().abs();
        let (bi, bj) = (
            label_box(labels[i], size, angle, vertical),
            label_box(labels[j], size, angle, vertical),
        );
        let apart = if vertical {
            bi.3 - bj.1 + 0.2 * size <= gap
        } else {
            bi.2 - bj.0 + 0.2 * size <= gap
        };
        !(apart || gap * s >= 1.1 * size)
    })
}

/// Ticks and labels of `axis`, `length` points long.
pub fn ticks_for(axis: &Axis, length: f64, vertical: bool) -> TickSet {
    let (lo, hi) = (
        axis.domain.0.min(axis.domain.1),
        axis.domain.0.max(axis.domain.1),
    );
    if let Some(t) = &axis.ticks {
        let major: Vec<(f64, String)> = t
            .iter()
            .filter(|(v, _)| *v >= lo - 1e-9 && *v <= hi + 1e-9)
            .cloned()
            .collect();
        return fit_given(axis, major, length, vertical);
    }
    let angle = axis.label_angle.unwrap_or(0.0);
    if axis.log {
        let minor = ticks::log_minor(lo, hi);
        let decades = ticks::log_major(lo, hi);
        // Less than two decades (at most two decade ticks): 2 and 5
        // multiples are labelled too (matplotlib's LogLocator subs), the 2s
        // dropped first when crowded.
        if (decades.len() < 2 || (hi / lo).log10() < 2.0)
            && let Some(set) = log_sub_ticks(axis, (lo, hi), &minor, length, vertical, angle)
        {
            return set;
        }
        // Too short for two of the 1..9 multiples (150..260 holds only
        // 200): a 1-2-5 step as on a linear axis, placed on the log scale.
        if decades.len() < 2 {
            let mut set = linear_ticks(axis, (lo, hi), length, vertical, angle);
            if set.major.len() >= 2 {
                set.minor = minor
                    .into_iter()
                    .filter(|m| !set.major.iter().any(|(v, _)| (v / m - 1.0).abs() < 1e-9))
                    .collect();
                return set;
            }
        }
        return log_decade_ticks(axis, decades, minor, length, vertical, angle);
    }
    if let Some(c) = axis.symlog {
        return symlog_ticks(axis, c, lo, hi, length, vertical, angle);
    }
    linear_ticks(axis, (lo, hi), length, vertical, angle)
}

/// `vals` with their labels: the axis's format's, else `default`'s.
fn labelled(
    axis: &Axis,
    vals: Vec<f64>,
    default: &dyn Fn(&[f64]) -> Vec<String>,
) -> Vec<(f64, String)> {
    let labels = match &axis.format {
        Some(f) => f.labels(&vals),
        None => default(&vals),
    };
    vals.into_iter().zip(labels).collect()
}

/// Whether the labels of `major` sit side by side at `angle` uncrowded.
fn fits(axis: &Axis, major: &[(f64, String)], length: f64, angle: f64, vertical: bool) -> bool {
    let labels: Vec<&str> = major.iter().map(|(_, l)| l.as_str()).collect();
    !collide(
        &labels,
        &positions(axis, major, length),
        axis.tick_font_size,
        angle,
        vertical,
    )
}

/// A short log axis's 1, 2 and 5 multiples, then 1 and 5, then 1, 2 and
/// 5 turned (horizontal axes), then 1, 2, 3, 5 and every multiple; `None`
/// when none of these gives two ticks that fit.
fn log_sub_ticks(
    axis: &Axis,
    (lo, hi): (f64, f64),
    minor: &[f64],
    length: f64,
    vertical: bool,
    angle: f64,
) -> Option<TickSet> {
    // Then, when those give fewer than two ticks (less than a decade),
    // 1, 2, 3 and 5, then every multiple (matplotlib's `subs="auto"`).
    let every = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0];
    let tries = [
        &[1.0, 2.0, 5.0][..],
        &[1.0, 5.0],
        &[1.0, 2.0, 5.0],
        &[1.0, 2.0, 3.0, 5.0],
        &every,
    ];
    for (i, subs) in tries.into_iter().enumerate() {
        let vals = ticks::log_subs(lo, hi, subs);
        if vals.len() < 2 {
            continue;
        }
        let major = labelled(axis, vals, &ticks::format_log_subs);
        // The last try: the same ticks, turned (horizontal axes).
        let turned = i == 2 && !vertical;
        let fits = |a: f64| fits(axis, &major, length, a, vertical);
        let angle = if !turned || axis.label_angle.is_some() {
            Some(angle).filter(|a| fits(*a))
        } else {
            [angle, -45.0, -90.0].into_iter().find(|a| fits(*a))
        };
        if let Some(angle) = angle {
            let minor = minor
                .iter()
                .copied()
                .filter(|m| !major.iter().any(|(v, _)| (v / m - 1.0).abs() < 1e-9))
                .collect();
            return Some(TickSet {
                major,
                minor,
                angle,
                offset: None,
            });
        }
    }
    None
}

/// Every n-th decade until the labels fit (matplotlib's LogLocator also
/// skips decades on a long range).
fn log_decade_ticks(
    axis: &Axis,
    decades: Vec<f64>,
    minor: Vec<f64>,
    length: f64,
    vertical: bool,
    angle: f64,
) -> TickSet {
    let mut n = 1;
    loop {
        let vals: Vec<f64> = decades
            .iter()
            .enumerate()
            .filter(|(i, v)| (i % n == 0) || **v == 1.0)
            .map(|(_, v)| *v)
            .collect();
        let major = labelled(axis, vals, &|v| {
            v.iter().map(|x| ticks::format_log(*x)).collect()
        });
        if fits(axis, &major, length, angle, vertical) || n >= decades.len().max(1) {
            // Skipped decades stay as minor ticks.
            let minor = if n == 1 {
                minor
            } else {
                decades
                    .iter()
                    .copied()
                    .filter(|d| !major.iter().any(|(v, _)| v == d))
                    .collect()
            };
            return TickSet {
                major,
                minor,
                angle,
                offset: None,
            };
        }
        n += 1;
    }
}

/// A linear axis: the most 1-2-5 ticks whose labels fit, from one per
/// three (two, vertical) font sizes down.
fn linear_ticks(
    axis: &Axis,
    (lo, hi): (f64, f64),
    length: f64,
    vertical: bool,
    angle: f64,
) -> TickSet {
    let size = axis.tick_font_size;
    let per = size * if vertical { 2.0 } else { 3.0 };
    let mut bins = (length / per).floor().max(1.0) as usize;
    let set = |(major, offset), angle| TickSet {
        major,
        minor: Vec::new(),
        angle,
        offset,
    };
    // Placed on a log axis (less than a decade), big values share a power.
    let default: &dyn Fn(&[f64]) -> Vec<String> = if axis.log {
        &ticks::format_log_linear
    } else {
        &ticks::format_linear
    };
    // Labels as drawn (a factored power taken out) are what must fit.
    let label = |vals: Vec<f64>| factored(axis, labelled(axis, vals, default));
    loop {
        let (major, offset) = label(ticks::linear_steps(lo, hi, bins, axis.integer));
        if major.len() < 2 {
            break;
        }
        if fits(axis, &major, length, angle, vertical) {
            return set((major, offset), angle);
        }
        if bins <= 1 {
            break;
        }
        bins -= 1;
    }
    // Never fewer than two labelled ticks while two fit: the ends of the
    // largest 1-2-5 step with two ticks inside, level or else turned.
    let mut two = ticks::two_ticks(lo, hi);
    // Integer data never gets a fractional tick, though one whole tick is
    // all there is (one value: 4.45..5.55 shows 5, not 4.5 and 5.5).
    if axis.integer && two.iter().any(|t| t.fract() != 0.0) {
        two = ticks::linear_steps(lo, hi, 9, true);
    }
    let (major, offset) = label(two);
    let turns: &[f64] = if vertical || axis.label_angle.is_some() {
        &[]
    } else {
        &[-45.0, -90.0]
    };
    for a in std::iter::once(angle).chain(turns.iter().copied()) {
        if fits(axis, &major, length, a, vertical) {
            return set((major, offset), a);
        }
    }
    // Not even two fit: the low one alone.
    let one: Vec<(f64, String)> = major.into_iter().take(1).collect();
    let offset = offset.filter(|_| !one.is_empty());
    set((one, offset), angle)
}

/// `major` with the scientific format's power of ten factored out of its
/// labels (a linear axis), and that factor; as they are otherwise. Without
/// a `format`, a linear axis whose largest tick is 10⁶ or more, or under
/// 10⁻⁴, is factored too (matplotlib's default `powerlimits`, -5 and 6):
/// `0 0.25 0.5 0.75 1` and `×10⁹`, not `0 250000000 ... 1000000000`.
fn factored(axis: &Axis, major: Vec<(f64, String)>) -> (Vec<(f64, String)>, Option<String>) {
    let vals: Vec<f64> = major.iter().map(|(v, _)| *v).collect();
    if axis.log {
        return (major, None);
    }
    let factor = match &axis.format {
        Some(f) => f.factored(&vals),
        None => ticks::factored_linear(&vals),
    };
    match factor {
        Some((labels, offset)) => (vals.into_iter().zip(labels).collect(), Some(offset)),
        None => (major, None),
    }
}

/// symlog ticks: 0 and ±C·10ᵏ inside the domain; where labels would
/// collide, 0 and the largest magnitudes are kept first.
fn symlog_ticks(
    axis: &Axis,
    c: f64,
    lo: f64,
    hi: f64,
    length: f64,
    vertical: bool,
    angle: f64,
) -> TickSet {
    let size = axis.tick_font_size;
    let kmax = ((lo.abs().max(hi.abs()) / c).log10().ceil().max(0.0) as i32).min(300);
    let mut vals = vec![0.0];
    for k in (0..=kmax).rev() {
        vals.push(c * 10f64.powi(k));
        vals.push(-c * 10f64.powi(k));
    }
    vals.retain(|v| *v >= lo - 1e-9 * c && *v <= hi + 1e-9 * c);
    let labels = match &axis.format {
        Some(f) => f.labels(&vals),
        None => symlog_labels(&vals, c),
    };
    let cands: Vec<(f64, String)> = vals.into_iter().zip(labels).collect();
    let pos = positions(axis, &cands, length);
    let mut kept: Vec<usize> = Vec::new();
    for i in 0..cands.len() {
        let clear = kept.iter().all(|&j| {
            !collide(
                &[cands[i].1.as_str(), cands[j].1.as_str()],
                &[pos[i], pos[j]],
                size,
                angle,
                vertical,
            )
        });
        if clear {
            kept.push(i);
        }
    }
    kept.sort_by(|a, b| cands[*a].0.total_cmp(&cands[*b].0));
    TickSet {
        major: kept.into_iter().map(|i| cands[i].clone()).collect(),
        minor: Vec::new(),
        angle,
        offset: None,
    }
}

/// Plain numbers while they are short (|v| < 10⁴), else ±10ᵏ when the
/// constant is a power of ten.
fn symlog_labels(vals: &[f64], c: f64) -> Vec<String> {
    let decade = (c.log10() - c.log10().round()).abs() < 1e-9;
    let big = vals.iter().any(|v| v.abs() >= 1e4);
    if !(decade && big) {
        return ticks::format_linear(vals);
    }
    vals.iter()
        .map(|v| {
            if *v == 0.0 {
                "0".to_string()
            } else {
                let sign = if *v < 0.0 { "\u{2212}" } else { "" };
                format!("{sign}{}", ticks::format_log(v.abs()))
            }
        })
        .collect()
}

/// Given labels (categories, explicit ticks): kept level when they fit,
/// else (on a horizontal axis without `labelAngle`) wrapped at spaces and
/// underscores into at most three lines, else turned 45°, else 90°.
fn fit_given(axis: &Axis, major: Vec<(f64, String)>, length: f64, vertical: bool) -> TickSet {
    let size = axis.tick_font_size;
    let pos = positions(axis, &major, length);
    let set = |major, angle| TickSet {
        major,
        minor: Vec::new(),
        angle,
        offset: None,
    };
    if let Some(a) = axis.label_angle {
        return set(major, a);
    }
    let texts: Vec<&str> = major.iter().map(|(_, l)| l.as_str()).collect();
    if vertical || !collide(&texts, &pos, size, 0.0, false) {
        return set(major, 0.0);
    }
    // The room of each label: the smallest gap to a neighbour.
    let mut room = f64::INFINITY;
    let mut sorted = pos.clone();
    sorted.sort_by(f64::total_cmp);
    for w in sorted.windows(2) {
        room = room.min(w[1] - w[0]);
    }
    let wrapped: Vec<(f64, String)> = major
        .iter()
        .map(|(v, l)| (*v, wrap(l, size, room - LABEL_GAP * size, &[' ', '_'])))
        .collect();
    let wtexts: Vec<&str> = wrapped.iter().map(|(_, l)| l.as_str()).collect();
    if wtexts.iter().all(|l| text::lines(l).count() <= 3)
        && !collide(&wtexts, &pos, size, 0.0, false)
    {
        return set(wrapped, 0.0);
    }
    for a in [-45.0, -90.0] {
        if !collide(&texts, &pos, size, a, false) {
            return set(major, a);
        }
    }
    set(major, -90.0)
}

/// The pieces of `line`, each ending at a break (a space is dropped, `_`
/// kept) and flagged when a space followed it; with `keep_groups`, no
/// break inside parentheses.
fn pieces(line: &str, breaks: &[char], keep_groups: bool) -> Vec<(String, bool)> {
    let mut pieces: Vec<(String, bool)> = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    for ch in line.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let inside = keep_groups && depth > 0;
        if ch == ' ' && breaks.contains(&' ') && !inside {
            pieces.push((std::mem::take(&mut cur), true));
        } else {
            cur.push(ch);
            if ch != ' ' && breaks.contains(&ch) && !inside {
                pieces.push((std::mem::take(&mut cur), false));
            }
        }
    }
    pieces.push((cur, false));
    pieces
}

/// `s` broken into lines no wider than `max_w` points at `size`: after an
/// underscore (kept) or at a space (dropped), greedily, never inside a
/// parenthesis that fits on a line (`(1 KiB values)` stays whole). A word
/// wider than `max_w` keeps its own line. Existing line breaks stay.
pub fn wrap(s: &str, size: f64, max_w: f64, breaks: &[char]) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in text::lines(s) {
        if text::width(line, size) <= max_w {
            out.push(line.to_string());
            continue;
        }
        let grouped = pieces(line, breaks, true);
        let pieces = match grouped.iter().all(|(p, _)| text::width(p, size) <= max_w) {
            true => grouped,
            false => pieces(line, breaks, false),
        };
        let mut now = String::new();
        let mut pending_space = false;
        for (p, space_after) in pieces {
            let candidate = if now.is_empty() {
                p.clone()
            } else if pending_space {
                format!("{now} {p}")
            } else {
                format!("{now}{p}")
            };
            if !now.is_empty() && text::width(&candidate, size) > max_w {
                out.push(std::mem::take(&mut now));
                now = p;
            } else {
                now = candidate;
            }
            pending_space = space_after;
        }
        out.push(now);
    }
    out.join("\n")
}

/// `s` cut to at most `max_w` points wide at `size`, ending in "…" when
/// cut (at least "…" itself).
pub fn ellipsize(s: &str, size: f64, max_w: f64) -> String {
    if text::width(s, size) <= max_w {
        return s.to_string();
    }
    let chars: Vec<char> = s.chars().collect();
    // The longest prefix that fits with the ellipsis (widths grow with it).
    let fits =
        |n: usize| text::width(&format!("{}…", String::from_iter(&chars[..n])), size) <= max_w;
    let (mut lo, mut hi) = (0, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    format!("{}…", String::from_iter(&chars[..lo]).trim_end())
}

/// `plot` with given tick labels (categories) reaching further than half of
/// its panel's height (x, turned 45° unless `labelAngle` says otherwise)
/// or width (y) cut with
/// [`ellipsize`], with a note per label cut; `None` when none is too long.
/// One 300-character category otherwise left no room for the plot.
pub fn shorten_long_labels(plot: &Plot, notes: &mut Vec<String>) -> Option<Plot> {
    let (rows, cols) = plot.layout;
    let cell_w = plot.width / cols.max(1) as f64;
    let cell_h = plot.height / rows.max(1) as f64;
    let mut out: Option<Plot> = None;
    let mut named = 0;
    let mut more = 0;
    for (pi, p) in plot.panels.iter().enumerate() {
        for (on_y, axis) in [(false, &p.x), (true, &p.y)] {
            let Some(ticks) = &axis.ticks else { continue };
            // The label's depth into the panel at most half of it (turned
            // 45° when turned automatically, as it mostly is).
            let a = axis.label_angle.unwrap_or(-45.0).to_radians();
            let across = if on_y { a.cos() } else { a.sin() }.abs().max(0.5);
            let max_w = 0.5 * if on_y { cell_w } else { cell_h } / across;
            for (ti, (_, label)) in ticks.iter().enumerate() {
                if text::width(label, axis.tick_font_size) <= max_w {
                    continue;
                }
                let short = ellipsize(label, axis.tick_font_size, max_w);
                let note = format!(
                    "{} tick label \"{}\" is too long for the figure; shown as \"{}\"",
                    if on_y { "y" } else { "x" },
                    label.escape_debug(),
                    short.escape_debug()
                );
                if named >= 10 {
                    more += 1;
                } else if !notes.contains(&note) {
                    notes.push(note);
                    named += 1;
                }
                let q = out.get_or_insert_with(|| plot.clone());
                let a = if on_y {
                    &mut q.panels[pi].y
                } else {
                    &mut q.panels[pi].x
                };
                if let Some(t) = a.ticks.as_mut() {
                    t[ti].1 = short;
                }
            }
        }
    }
    if more > 0 {
        notes.push(format!("and {more} more tick labels shortened"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_and_after_underscores() {
        assert_eq!(
            wrap("read_heavy_mix", 10.0, 45.0, &[' ', '_']),
            "read_\nheavy_\nmix"
        );
        assert_eq!(wrap("a long title", 10.0, 40.0, &[' ']), "a long\ntitle");
        assert_eq!(wrap("short", 10.0, 100.0, &[' ']), "short");
        // A parenthesis that fits on a line is not broken.
        assert_eq!(
            wrap(
                "throughput against threads (1 KiB values)",
                10.0,
                190.0,
                &[' ']
            ),
            "throughput against threads\n(1 KiB values)"
        );
        // One that does not fit breaks as words do.
        assert_eq!(
            wrap("a (very long parenthesis here)", 10.0, 60.0, &[' ']),
            "a (very\nlong\nparenthesis\nhere)"
        );
    }
}
