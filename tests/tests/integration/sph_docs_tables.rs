//! The generated documentation (docs/targets/sph.md) reproduces the tables of NVIDIA's Shader
//! Program Header document, transcribed in tests/data/sph/document_tables.tsv: for each of the
//! 24 tables, the layout's table has the document's rows in its order with the same field
//! (compared in lower case without `_`), bit width and type; the enum tables (table 13 and the
//! three the document gives in prose) have the same names and values.

const DOCS: &str = include_str!("../../../docs/targets/sph.md");
const TABLES_TSV: &str = include_str!("../../data/sph/document_tables.tsv");

/// One row of the document: (table, title, field, bit width, type or value).
struct Row {
    table: u32,
    title: &'static str,
    field: &'static str,
    width: &'static str,
    ty: &'static str,
}

fn document_rows() -> Vec<Row> {
    let mut out = Vec::new();
    for line in TABLES_TSV.lines() {
        if line.starts_with('#') || line.starts_with("table\t") || line.trim().is_empty() {
            continue;
        }
        let c: Vec<&str> = line.split('\t').collect();
        assert_eq!(c.len(), 5, "{line}");
        out.push(Row {
            table: c[0].parse().expect("table number"),
            title: c[1],
            field: c[2],
            width: c[3],
            ty: c[4],
        });
    }
    out
}

/// The spec's name of a document table: `SphType1`/`SphType2` for tables 1 and 2, the title
/// without " Definition" / " enum definition" / " enum" otherwise.
fn spec_name(table: u32, title: &str) -> String {
    match table {
        1 => "SphType1".to_string(),
        2 => "SphType2".to_string(),
        _ => title
            .trim_end_matches(" Definition")
            .trim_end_matches(" enum definition")
            .trim_end_matches(" enum")
            .to_string(),
    }
}

/// Lower case without `_` (`ImapGenericVector[32]` and `imap_generic_vector[32]` agree); an
/// unnamed reserved row is `Reserved` in the document and `Reserved` or `unused` in the docs.
fn name_key(s: &str) -> String {
    let key: String = s.chars().filter(|c| *c != '_').flat_map(char::to_lowercase).collect();
    if key == "unused" {
        "reserved".to_string()
    } else {
        key
    }
}

/// A Markdown cell as plain text: links `[x](#y)` as `x`, no backticks.
fn plain(cell: &str) -> String {
    let mut out = String::new();
    let mut rest = cell.trim();
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|i| open + i) else { break };
        let Some(end) = rest[close..].find(')').map(|i| close + i) else { break };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out.replace('`', "").trim().to_string()
}

/// The document's type and the generated one agree: `U05` is `u5`, `enum` is any enum, a
/// dash is a dash.
fn same_type(doc: &str, generated: &str) -> bool {
    let generated = generated.to_lowercase().replace(['—', '–'], "-");
    let doc = doc.to_lowercase();
    if let Some(digits) = doc.strip_prefix('u') {
        if let Ok(n) = digits.parse::<u32>() {
            return generated == format!("u{n}");
        }
    }
    if doc == "enum" {
        return generated.starts_with("enum");
    }
    generated == doc
}

/// The section of the docs whose `###` heading names `name` (`### Foo`, `### Layout `Foo``,
/// `### Enum `Foo``).
fn section(name: &str) -> Option<&'static str> {
    let mut start = None;
    for (at, line) in line_offsets(DOCS) {
        if let Some(start) = start {
            if line.starts_with("## ") || line.starts_with("### ") {
                return Some(&DOCS[start..at]);
            }
            continue;
        }
        if let Some(heading) = line.strip_prefix("### ") {
            let heading = heading.replace('`', "");
            let heading = heading.trim();
            let heading =
                heading.strip_prefix("Layout ").or_else(|| heading.strip_prefix("Enum ")).unwrap_or(heading);
            if heading.trim() == name {
                start = Some(at);
            }
        }
    }
    start.map(|s| &DOCS[s..])
}

fn line_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0, |at, line| {
        let here = *at;
        *at += line.len();
        Some((here, line.trim_end_matches(['\n', '\r'])))
    })
}

/// The rows of the first Markdown table in `text` whose header starts with `header`'s cells,
/// as cells, without the header and the `|---|` line.
fn table_rows(text: &str, header: &[&str]) -> Option<Vec<Vec<String>>> {
    let cells = |line: &str| -> Vec<String> {
        line.trim().trim_start_matches('|').trim_end_matches('|').split('|').map(plain).collect()
    };
    let mut lines = text.lines().skip_while(|l| {
        let c = cells(l);
        !(l.trim_start().starts_with('|')
            && c.len() >= header.len()
            && c.iter().zip(header).all(|(a, b)| a == b))
    });
    lines.next()?;
    let rows: Vec<Vec<String>> = lines
        .take_while(|l| l.trim_start().starts_with('|'))
        .filter(|l| !l.replace(['|', '-', ':', ' '], "").is_empty())
        .map(cells)
        .collect();
    Some(rows)
}

#[test]
fn the_document_has_24_tables_and_3_prose_enums() {
    let rows = document_rows();
    let mut tables: Vec<u32> = rows.iter().map(|r| r.table).collect();
    tables.dedup();
    assert_eq!(tables, (1..=24).chain([0]).collect::<Vec<_>>());
    let prose: Vec<String> =
        rows.iter().filter(|r| r.table == 0).map(|r| spec_name(0, r.title)).fold(Vec::new(), |mut v, n| {
            if !v.contains(&n) {
                v.push(n);
            }
            v
        });
    assert_eq!(prose, ["SphType", "ShaderType", "OutputTopology"]);
}

#[test]
fn layout_tables_match_the_document() {
    let rows = document_rows();
    let mut compared = 0;
    for table in (1..=24).filter(|t| *t != 13) {
        let doc: Vec<&Row> = rows.iter().filter(|r| r.table == table).collect();
        let name = spec_name(table, doc[0].title);
        let text = section(&name).unwrap_or_else(|| panic!("table {table}: no `### {name}` in sph.md"));
        let generated = table_rows(text, &["Field", "Bit width", "Type"])
            .unwrap_or_else(|| panic!("table {table} ({name}): no | Field | Bit width | Type | table"));
        let shown = |g: &[Vec<String>]| g.iter().map(|r| r[..3].join(" | ")).collect::<Vec<_>>().join("\n");
        assert_eq!(generated.len(), doc.len(), "table {table} ({name}), generated:\n{}", shown(&generated));
        for (d, g) in doc.iter().zip(&generated) {
            let at = format!(
                "table {table} ({name}): document row {} {} {}, generated {g:?}",
                d.field, d.width, d.ty
            );
            assert_eq!(name_key(&g[0]), name_key(d.field), "{at}");
            assert_eq!(g[1], d.width, "{at}");
            assert!(same_type(d.ty, &g[2]), "{at}");
            compared += 1;
        }
    }
    assert_eq!(compared, document_rows().iter().filter(|r| r.table != 0 && r.table != 13).count());
}

#[test]
fn enum_tables_match_the_document() {
    let rows = document_rows();
    for name in ["PixelImap", "SphType", "ShaderType", "OutputTopology"] {
        let doc: Vec<&Row> = rows
            .iter()
            .filter(|r| (r.table == 13 || r.table == 0) && spec_name(r.table, r.title) == name)
            .collect();
        assert!(!doc.is_empty(), "{name} in the TSV");
        let text = section(name).unwrap_or_else(|| panic!("no `### {name}` in sph.md"));
        // The enum table's header has a Value and a Name column, in either order.
        let header_line = text
            .lines()
            .find(|l| l.trim_start().starts_with('|') && l.contains("Value") && l.contains("Name"))
            .unwrap_or_else(|| panic!("{name}: no Value/Name table"));
        let header: Vec<String> =
            header_line.trim().trim_start_matches('|').trim_end_matches('|').split('|').map(plain).collect();
        let value_col = header.iter().position(|h| h == "Value").expect("Value column");
        let name_col = header.iter().position(|h| h == "Name").expect("Name column");
        let header_cells: Vec<&str> = header.iter().map(String::as_str).collect();
        let generated = table_rows(text, &header_cells).expect("the enum table");
        // Rows with a number; a catch-all (`other`) is the spec's, not the document's.
        let numbered: Vec<(String, u64)> = generated
            .iter()
            .filter_map(|r| Some((name_key(&r[name_col]), r[value_col].parse().ok()?)))
            .collect();
        let expected: Vec<(String, u64)> =
            doc.iter().map(|r| (name_key(r.field), r.ty.parse().expect("a value"))).collect();
        assert_eq!(numbered, expected, "{name}");
    }
}
