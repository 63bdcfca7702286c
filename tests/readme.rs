//! The README's tour is real output: every `$ shaderscope …` example in it is run on the
//! shipped samples and must print exactly the lines shown (a `| head -N` or `| tail -N` after
//! the command keeps that many lines).

use std::process::Command;

/// One `$ shaderscope …` example: its arguments, an optional `head`/`tail` cut, the lines shown.
struct Example {
    args: Vec<String>,
    cut: Option<(String, usize)>,
    shown: Vec<String>,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            out.extend(current.take());
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("$ shaderscope ") {
            out.extend(current.take());
            let (cmd, cut) = match cmd.split_once(" | ") {
                Some((c, pipe)) => {
                    let mut w = pipe.split_whitespace();
                    let tool = w.next().unwrap_or("").to_string();
                    let n =
                        w.next().and_then(|n| n.strip_prefix('-')).and_then(|n| n.parse().ok()).unwrap_or(0);
                    (c, Some((tool, n)))
                }
                None => (cmd, None),
            };
            current = Some(Example {
                args: cmd.split_whitespace().map(String::from).collect(),
                cut,
                shown: Vec::new(),
            });
        } else if let Some(e) = current.as_mut() {
            e.shown.push(line.to_string());
        }
    }
    out.extend(current);
    for e in &mut out {
        while e.shown.last().is_some_and(|l| l.is_empty()) {
            e.shown.pop();
        }
    }
    out
}

#[test]
fn the_readme_tour_prints_what_it_shows() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let all = examples(&readme);
    assert!(all.len() >= 5, "found {} examples", all.len());
    for e in all {
        let o =
            Command::new(env!("CARGO_BIN_EXE_shaderscope")).args(&e.args).current_dir(root).output().unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        let mut lines: Vec<&str> = text.lines().collect();
        match &e.cut {
            Some((tool, n)) if tool == "head" => lines.truncate(*n),
            Some((tool, n)) if tool == "tail" => lines = lines.split_off(lines.len().saturating_sub(*n)),
            Some((tool, _)) => panic!("unknown pipe `{tool}` in the README"),
            None => {}
        }
        assert_eq!(lines, e.shown, "README example `shaderscope {}`", e.args.join(" "));
    }
}
