//! Why the default scheme is Okabe–Ito: its colours stay apart under the
//! three colour-vision deficiencies, where tab10's do not. Colour-blind
//! vision simulated with Machado, Oliveira & Fernandes (2009) at severity
//! 1.0 (on linear sRGB), distances in CIEDE2000 (ΔE00; about 2 is "just
//! told apart" side by side, far less on a line in a legend).
//!
//! [`closest_pair`] tells whether a figure's colours stay apart: the
//! gallery's table of figures (`tests/figures_layout.rs`) reports it.

use super::Color;
#[cfg(test)]
use super::scheme::{DEFAULT, OKABE_ITO};
#[cfg(test)]
use super::{TAB10, parse};

/// How far apart a figure's closest colours are, under which deficiency.
#[derive(Debug, Clone, PartialEq)]
pub struct Closest {
    /// ΔE00 between the two colours as the deficiency sees them.
    pub distance: f64,
    /// `protanopia`, `deuteranopia` or `tritanopia`.
    pub deficiency: &'static str,
    /// The two colours, `#rrggbb`.
    pub pair: (String, String),
}

/// Colours this far apart (ΔE00) under every deficiency count as told
/// apart in a legend: Okabe–Ito's closest pair is 10.9, tab10's 1.3.
pub const SAFE_DISTANCE: f64 = 10.0;

/// The closest pair of `colors` (opacity ignored, duplicates dropped) under
/// any of the three deficiencies; `None` with fewer than two colours.
pub fn closest_pair(colors: &[Color]) -> Option<Closest> {
    let mut distinct: Vec<(String, Color)> = colors.iter().map(|c| (c.hex(), *c)).collect();
    distinct.sort_by(|a, b| a.0.cmp(&b.0));
    distinct.dedup_by(|a, b| a.0 == b.0);
    let mut best: Option<Closest> = None;
    for (name, m) in &MACHADO {
        let lab: Vec<[f64; 3]> = distinct.iter().map(|(_, c)| seen(*c, m)).collect();
        for i in 0..distinct.len() {
            for j in i + 1..distinct.len() {
                let d = de2000(lab[i], lab[j]);
                if best.as_ref().is_none_or(|b| d < b.distance) {
                    best = Some(Closest {
                        distance: d,
                        deficiency: name,
                        pair: (distinct[i].0.clone(), distinct[j].0.clone()),
                    });
                }
            }
        }
    }
    best
}

/// Machado (2009), severity 1.0: protanopia, deuteranopia, tritanopia.
const MACHADO: [(&str, [[f64; 3]; 3]); 3] = [
    (
        "protanopia",
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ],
    ),
    (
        "deuteranopia",
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ],
    ),
    (
        "tritanopia",
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ],
    ),
];

/// CIELAB (D65) of `c` as seen under deficiency matrix `m`.
fn seen(c: Color, m: &[[f64; 3]; 3]) -> [f64; 3] {
    let lin = super::linear;
    let l = [lin(c.r), lin(c.g), lin(c.b)];
    let s: Vec<f64> = m
        .iter()
        .map(|row| (row[0] * l[0] + row[1] * l[1] + row[2] * l[2]).clamp(0.0, 1.0))
        .collect();
    let x = 0.4124564 * s[0] + 0.3575761 * s[1] + 0.1804375 * s[2];
    let y = 0.2126729 * s[0] + 0.7151522 * s[1] + 0.0721750 * s[2];
    let z = 0.0193339 * s[0] + 0.1191920 * s[1] + 0.9503041 * s[2];
    let f = |t: f64| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// CIEDE2000 between two CIELAB colours (Sharma, Wu & Dalal 2005).
fn de2000(a: [f64; 3], b: [f64; 3]) -> f64 {
    let [l1, a1, b1] = a;
    let [l2, a2, b2] = b;
    let c7 = |c: f64| c.powi(7) / (c.powi(7) + 25f64.powi(7));
    let cb = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let g = 0.5 * (1.0 - c7(cb).sqrt());
    let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
    let hue = |b: f64, a: f64| b.atan2(a).to_degrees().rem_euclid(360.0);
    let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
    let dlp = l2 - l1;
    let dcp = c2p - c1p;
    let mut dhp = h2p - h1p;
    if c1p * c2p == 0.0 {
        dhp = 0.0;
    } else if dhp > 180.0 {
        dhp -= 360.0;
    } else if dhp < -180.0 {
        dhp += 360.0;
    }
    let dhp_big = 2.0 * (c1p * c2p).sqrt() * (dhp / 2.0).to_radians().sin();
    let lbp = (l1 + l2) / 2.0;
    let cbp = (c1p + c2p) / 2.0;
    let hbp = if c1p * c2p == 0.0 {
        h1p + h2p
    } else if (h1p - h2p).abs() > 180.0 {
        if h1p + h2p < 360.0 {
            (h1p + h2p + 360.0) / 2.0
        } else {
            (h1p + h2p - 360.0) / 2.0
        }
    } else {
        (h1p + h2p) / 2.0
    };
    let cos = |d: f64| d.to_radians().cos();
    let t = 1.0 - 0.17 * cos(hbp - 30.0) + 0.24 * cos(2.0 * hbp) + 0.32 * cos(3.0 * hbp + 6.0)
        - 0.20 * cos(4.0 * hbp - 63.0);
    let dth = 30.0 * (-((hbp - 275.0) / 25.0).powi(2)).exp();
    let rc = 2.0 * c7(cbp).sqrt();
    let sl = 1.0 + 0.015 * (lbp - 50.0).powi(2) / (20.0 + (lbp - 50.0).powi(2)).sqrt();
    let sc = 1.0 + 0.045 * cbp;
    let sh = 1.0 + 0.015 * cbp * t;
    let rt = -(2.0 * dth).to_radians().sin() * rc;
    ((dlp / sl).powi(2)
        + (dcp / sc).powi(2)
        + (dhp_big / sh).powi(2)
        + rt * (dcp / sc) * (dhp_big / sh))
        .sqrt()
}

/// A palette's `#rrggbb` entry as a colour.
#[cfg(test)]
fn hex(h: &str) -> Color {
    parse(h).unwrap().unwrap()
}

/// The closest pair of `palette` under each deficiency: (ΔE00, a, b).
#[cfg(test)]
fn closest(palette: &[&'static str]) -> Vec<(f64, &'static str, &'static str)> {
    MACHADO
        .iter()
        .map(|(_, m)| {
            let mut best = (f64::INFINITY, "", "");
            for (i, a) in palette.iter().enumerate() {
                for b in &palette[i + 1..] {
                    let d = de2000(seen(hex(a), m), seen(hex(b), m));
                    if d < best.0 {
                        best = (d, *a, *b);
                    }
                }
            }
            best
        })
        .collect()
}

#[test]
fn de2000_matches_sharmas_published_pairs() {
    // Sharma, Wu & Dalal (2005), table 1, pairs 1 and 17.
    let d = de2000([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485]);
    assert!((d - 2.0425).abs() < 1e-4, "{d}");
    let d = de2000([50.0, 2.5, 0.0], [73.0, 25.0, -18.0]);
    assert!((d - 27.1492).abs() < 1e-4, "{d}");
}

#[test]
fn the_default_scheme_stays_apart_under_colour_blindness_where_tab10_does_not() {
    assert_eq!(DEFAULT, OKABE_ITO);
    // Okabe–Ito: every pair at least 10.9 ΔE00 apart under each deficiency
    // (tritanopia: orange and reddish purple).
    for (i, (d, a, b)) in closest(&DEFAULT).into_iter().enumerate() {
        assert!(d > 10.5, "{}: {a} and {b} are {d:.1} apart", MACHADO[i].0);
    }
    // tab10 under protanopia: orange and green, 1.3 apart.
    let (d, a, b) = closest(&TAB10)[0];
    assert_eq!((a, b), ("#ff7f0e", "#2ca02c"));
    assert!((d - 1.25).abs() < 0.05, "{d}");
}

#[test]
fn closest_pair_names_tab10s_orange_and_green_under_protanopia() {
    let colors: Vec<Color> = ["#1f77b4", "#ff7f0e", "#2ca02c", "#ff7f0e"]
        .iter()
        .map(|h| parse(h).unwrap().unwrap())
        .collect();
    let c = closest_pair(&colors).unwrap();
    assert_eq!(c.deficiency, "protanopia");
    assert_eq!(c.pair, ("#2ca02c".to_string(), "#ff7f0e".to_string()));
    assert!((c.distance - 1.25).abs() < 0.05, "{}", c.distance);
    assert!(closest_pair(&colors[..1]).is_none());
}
