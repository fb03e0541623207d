//! The spec: any text as artifact.toml must parse or fail with an error
//! pointing into it; every expression, template and step in a spec that
//! parses must compile or fail the same way. No file is read.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(spec) = artifact::spec::parse(text, std::path::Path::new("/nonexistent/artifact.toml")) else {
        return;
    };
    let _ = artifact::plan::validate::validate(&spec);
    // Rendering errors must point inside the text.
    if let Err(e) = artifact::plan::validate::validate(&spec) {
        let _ = e.to_string();
    }
});
