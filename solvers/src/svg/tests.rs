use super::*;
use crate::puzzle::Input;
use crate::registry::parse_any;
use std::collections::HashMap;

/// The facelets of a picture: `data-facelet` -> (fill, x, y).
fn facelets(svg: &str) -> HashMap<String, (String, f64, f64)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert!(!svg.contains("<script"), "no scripts");
    let mut out = HashMap::new();
    for node in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("facelet"))
    {
        let name = node.attribute("data-facelet").expect("named").to_string();
        let fill = node.attribute("fill").expect("filled").to_string();
        let (x, y) = match node.tag_name().name() {
            "rect" => (
                node.attribute("x").unwrap().parse().unwrap(),
                node.attribute("y").unwrap().parse().unwrap(),
            ),
            "polygon" => {
                let pts: Vec<f64> = node
                    .attribute("points")
                    .unwrap()
                    .split([' ', ','])
                    .map(|v| v.parse().unwrap())
                    .collect();
                let k = pts.len() as f64 / 2.0;
                (
                    pts.iter().step_by(2).sum::<f64>() / k,
                    pts.iter().skip(1).step_by(2).sum::<f64>() / k,
                )
            }
            other => panic!("facelet drawn as {other}"),
        };
        assert!(
            out.insert(name.clone(), (fill, x, y)).is_none(),
            "{name} twice"
        );
    }
    out
}

fn colour_counts(f: &HashMap<String, (String, f64, f64)>) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for (fill, _, _) in f.values() {
        *counts.entry(fill.clone()).or_insert(0) += 1;
    }
    counts
}

fn cube_picture(n: usize, scramble: &str) -> (Vec<u8>, String) {
    let pos = parse_any(&format!("{n}x{n}x{n}"), &Input::Scramble(scramble)).unwrap();
    let svg = draw(&pos, &format!("{n}x{n}x{n} {scramble}")).unwrap();
    match pos.state {
        State::Cube(st) => (st, svg),
        _ => unreachable!(),
    }
}

/// The bounding box of a face's facelets: (min x, max x, min y, max y).
fn face_box(f: &HashMap<String, (String, f64, f64)>, face: char) -> (f64, f64, f64, f64) {
    let mut b = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for (k, (_, x, y)) in f {
        if k.starts_with(face) {
            b = (b.0.min(*x), b.1.max(*x), b.2.min(*y), b.3.max(*y));
        }
    }
    b
}

#[test]
fn cubes_2_to_7_solved_and_scrambled() {
    for n in 2..=7 {
        for scramble in ["", "R U' Fw2 x D B' L2", "3Rw U2 2F' y Bw R'"] {
            if n < 4 && scramble.contains('3') || n < 3 && scramble.contains('w') {
                continue;
            }
            let (st, svg) = cube_picture(n, scramble);
            let f = facelets(&svg);
            assert_eq!(f.len(), 6 * n * n, "{n}: {scramble}");
            let counts = colour_counts(&f);
            assert_eq!(counts.len(), 6, "{n}: {scramble}");
            assert!(counts.values().all(|&c| c == n * n), "{counts:?}");
            // Each facelet shows the model's colour, at its row and column.
            for face in Face::ALL {
                for i in 0..n * n {
                    let (fill, x, y) = &f[&format!("{}{i}", face.letter())];
                    let colour = st[face as usize * n * n + i] as usize;
                    assert_eq!(fill, CUBE_COLOURS[colour]);
                    let (x0, _, y0, _) = face_box(&f, face.letter());
                    assert_eq!((x - x0) / CELL, (i % n) as f64);
                    assert_eq!((y - y0) / CELL, (i / n) as f64);
                }
            }
            // The net: U above F, L F R B left to right, D below F.
            let b: HashMap<char, _> = "URFDLB".chars().map(|c| (c, face_box(&f, c))).collect();
            assert!(b[&'U'].3 < b[&'F'].2 && b[&'F'].3 < b[&'D'].2);
            assert_eq!((b[&'U'].0, b[&'D'].0), (b[&'F'].0, b[&'F'].0));
            assert!(b[&'L'].1 < b[&'F'].0 && b[&'F'].1 < b[&'R'].0 && b[&'R'].1 < b[&'B'].0);
            assert!(["L", "R", "B"]
                .iter()
                .all(|c| b[&c.chars().next().unwrap()].2 == b[&'F'].2));
        }
    }
}

#[test]
fn r_on_a_3x3x3_where_the_spec_says() {
    let (_, svg) = cube_picture(3, "R");
    let f = facelets(&svg);
    let spec = "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB";
    for (k, c) in spec.chars().enumerate() {
        let face = Face::ALL[k / 9];
        let colour = Face::from_letter(c).unwrap() as usize;
        assert_eq!(
            f[&format!("{}{}", face.letter(), k % 9)].0,
            CUBE_COLOURS[colour],
            "facelet {k}"
        );
    }
    // Green (F) on U's right column, white (U) on B's left column.
    assert_eq!(f["U2"].0, "#32cd32");
    assert_eq!(f["B0"].0, "#ffffff");
}

#[test]
fn pyraminx_as_cubing_js_draws_it() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("../../tests/fixtures/cubingjs-pyraminx.json")).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    assert!(cases.len() > 40);
    let colour_letter = |c: usize| pyraminx::FACES[c].letter;
    for case in cases {
        let alg = case["alg"].as_str().unwrap();
        let pos = parse_any("pyraminx", &Input::Scramble(alg)).unwrap();
        let State::Pyraminx(p) = &pos.state else {
            panic!("not a Pyraminx")
        };
        let mut grid = vec![vec!['.'; 11]; 6];
        for (fi, colours) in pyraminx::stickers(p).iter().enumerate() {
            for (k, &c) in colours.iter().enumerate() {
                let (r, col, _) = pyraminx::cell(fi, k);
                assert_eq!(grid[r][col], '.', "two stickers at {r},{col}");
                grid[r][col] = colour_letter(c);
            }
        }
        let ours: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
        let theirs: Vec<&str> = case["grid"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert_eq!(ours, theirs, "{alg}");
        let f = facelets(&draw(&pos, alg).unwrap());
        assert_eq!(f.len(), 36);
        assert!(colour_counts(&f).values().all(|&c| c == 9));
    }
}

#[test]
fn pyraminx_cells_point_the_right_way() {
    // The grid's triangles alternate: in row r, column c points up when r + c
    // is odd... except where faces meet; check against the solved layout.
    let up: Vec<Vec<char>> = [
        "VAVAVAVAVAV",
        ".VAVAVAVAV.",
        "..VAVAVAV..",
        "...VAVAV...",
        "....VAV....",
        ".....V.....",
    ]
    .iter()
    .map(|r| r.chars().collect())
    .collect();
    for fi in 0..4 {
        for k in 0..9 {
            let (r, c, is_up) = pyraminx::cell(fi, k);
            assert_eq!(up[r][c] == 'A', is_up, "face {fi} sticker {k} at {r},{c}");
        }
    }
}

#[test]
fn domino_net() {
    for scramble in ["", "U R2 D' F2 U2 L2 B2 D R2 U'"] {
        let pos = parse_any("domino", &Input::Scramble(scramble)).unwrap();
        let f = facelets(&draw(&pos, scramble).unwrap());
        assert_eq!(f.len(), 42);
        let counts = colour_counts(&f);
        assert_eq!(counts[CUBE_COLOURS[0]], 9);
        assert_eq!(counts[CUBE_COLOURS[3]], 9);
        for c in [1, 2, 4, 5] {
            assert_eq!(counts[CUBE_COLOURS[c]], 6);
        }
    }
    let pos = parse_any("domino", &Input::Scramble("R2")).unwrap();
    let f = facelets(&draw(&pos, "R2").unwrap());
    // R2 puts yellow on U's right column and white on D's.
    assert_eq!(f["U2"].0, CUBE_COLOURS[3]);
    assert_eq!(f["D8"].0, CUBE_COLOURS[0]);
}

#[test]
fn solve_series_pictures_each_phase() {
    let pos = parse_any("3x3x3", &Input::Scramble("U R")).unwrap();
    let solution = Solution {
        moves: vec!["R'".into(), "U'".into()],
        phases: vec![("first".into(), 1), ("second one".into(), 1)],
        optimal: false,
    };
    let series = solve_series("3x3x3", &pos, &solution).unwrap();
    let names: Vec<&str> = series.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names, ["00-start.svg", "01-first.svg", "02-second-one.svg"]);
    let after_r = parse_any("3x3x3", &Input::Scramble("U")).unwrap();
    assert_eq!(series[1].1.lines().skip(4).collect::<Vec<_>>(), {
        let svg = draw(&after_r, "x").unwrap();
        svg.lines().skip(4).map(str::to_string).collect::<Vec<_>>()
    });
    let last = facelets(&series[2].1);
    assert!(["U", "R", "F", "D", "L", "B"].iter().all(|face| {
        let fills: Vec<_> = last
            .iter()
            .filter(|(k, _)| k.starts_with(face))
            .map(|(_, v)| &v.0)
            .collect();
        fills.iter().all(|c| *c == fills[0])
    }));
    // A solve whose phases merged: the last picture is still solved.
    let merged = Solution {
        moves: vec!["R'".into(), "U'".into()],
        phases: vec![("a".into(), 2), ("b".into(), 1), ("merged".into(), 1)],
        optimal: false,
    };
    let series = solve_series("3x3x3", &pos, &merged).unwrap();
    assert_eq!(series.len(), 3);
    assert_eq!(
        series[1].1.lines().skip(4).collect::<Vec<_>>(),
        series[2].1.lines().skip(4).collect::<Vec<_>>()
    );
}

#[test]
fn titles_are_escaped() {
    let pos = parse_any("2x2x2", &Input::Scramble("R U'")).unwrap();
    let svg = draw(&pos, "<R U'> & \"x\"").unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(title.text(), Some("<R U'> & \"x\""));
}

#[test]
fn any_cube_size_and_bad_names() {
    assert!(parse_any("9x9x9", &Input::Scramble("4Rw 3U")).is_ok());
    for bad in ["1x1x1", "3x3", "3x4x3", "65x65x65", "megaminx", "x3x3x3"] {
        let e = parse_any(bad, &Input::Scramble("")).unwrap_err();
        assert!(e.is_input(), "{bad}");
    }
    let e = parse_any("5x5x5", &Input::Scramble("5R")).unwrap_err();
    assert!(e.to_string().contains("5R"), "{e}");
}
