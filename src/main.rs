fn main() {
    let path = std::path::Path::new(std::env::args().nth(1).as_deref().unwrap_or("artifact.toml")).to_path_buf();
    let spec = artifact::spec::load(&path).unwrap_or_else(|e| { eprintln!("error: {e}"); std::process::exit(2) });
    let cat = artifact::tables::build(&spec).unwrap_or_else(|e| { eprintln!("error: {e}"); std::process::exit(2) });
    for n in &cat.notes { eprintln!("note: {n}"); }
    let (nums, _) = artifact::numbers::compute(&spec, &cat).unwrap_or_else(|e| { eprintln!("error: {e}"); std::process::exit(2) });
    for n in &nums.list { println!("{} = {} ({})", n.key, n.text, n.value); }
}
