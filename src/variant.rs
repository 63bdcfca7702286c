//! `shaderscope variant`: which binaries one variation of a SHARCFB program uses.

use crate::batch;
use shaderscope::Refusal;
use shaderscope::json::{ErrorInfo, Record, RecordType};

#[derive(clap::Args, Debug)]
pub struct Opts {
    /// The SHARCFB archive (`-` for stdin)
    file: String,
    /// The program's name (as `info` lists it)
    program: String,
    /// Set a variation macro (by its name or its ID) to one of its values; repeat for more.
    /// A macro not set takes the program's default (or its first value when it has none)
    #[arg(long = "set", value_name = "MACRO=VALUE", value_parser = setting)]
    set: Vec<(String, String)>,
    /// One JSON record (schema in schema/shaderscope.schema.json): the settings and the
    /// binaries with their absolute offsets
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    out: batch::OutputArg,
}

/// `MACRO=VALUE`.
pub fn setting(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((m, v)) if !m.is_empty() => Ok((m.to_string(), v.to_string())),
        _ => Err(format!("\"{s}\" is not MACRO=VALUE")),
    }
}

pub fn run(o: Opts) -> u8 {
    o.out.open();
    let path = batch::display_name(&o.file).to_string();
    let fail = |kind: &'static str, message: String, status: u8| {
        if o.json {
            let r = Record::failure(RecordType::Variant, &path, None, ErrorInfo::other(kind, message));
            batch::write_out(r.to_line().as_bytes());
        } else {
            eprintln!("error: {path}: {message}");
        }
        status
    };
    let data = match batch::read_input(&o.file, true) {
        Ok(d) => d,
        Err(r) => {
            let status = fail(if r.status == batch::IO { "io" } else { "invalid" }, r.message, r.status);
            eprint!("{}", r.hint.unwrap_or_default());
            return status;
        }
    };
    let file = match shaderscope::parse(&data) {
        Ok(f) => f,
        Err(e) => {
            if o.json {
                let r = Record::failure(
                    RecordType::Variant,
                    &path,
                    shaderscope::Format::of(&data),
                    ErrorInfo::from_error(&e),
                );
                return batch::write_out(r.to_line().as_bytes()).max(batch::INVALID);
            }
            eprintln!("error: {path}: {e}");
            return batch::INVALID;
        }
    };
    let resolved = file.variant(&o.program, &o.set);
    if let Err(Refusal::Inapplicable(e)) = &resolved {
        return fail("usage", e.to_string(), batch::IO);
    }
    // A damaged part makes the archive invalid, whatever variation is asked for (as `extract`
    // reports it): said first, then what the variation itself gives.
    let mut damage = batch::Output::default();
    batch::damage(&path, &file, None, &mut damage);
    eprint!("{}", damage.stderr);
    let resolved = match resolved {
        Ok(r) => r,
        Err(e) if e.is_usage() => return fail("usage", e.to_string(), batch::IO).max(damage.status),
        Err(e) => return fail("invalid", e.to_string(), batch::INVALID),
    };
    let mismatched: Vec<String> = resolved
        .binaries
        .iter()
        .filter(|b| !b.type_matches)
        .map(|b| {
            format!(
                "binary {} is the {} shader of the variation but its type field says {}",
                b.index, b.stage, b.kind
            )
        })
        .collect();
    let status = if mismatched.is_empty() { damage.status } else { batch::INVALID };
    let written = if o.json {
        let r = Record::new(RecordType::Variant, &path, Some(shaderscope::Format::Sharcfb))
            .with_body(&resolved)
            .with_valid(status == batch::OK);
        batch::write_out(r.to_line().as_bytes())
    } else {
        let mut s = String::new();
        resolved.write_text(&mut s);
        batch::write_text(&s)
    };
    for m in &mismatched {
        eprintln!("error: {path}: {m}");
    }
    written.max(status)
}
