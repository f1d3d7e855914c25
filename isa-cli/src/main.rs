//! `isa`: the command line of the isa project.
//!
//! Spec files: `isa check`, `isa gen` (Rust), `isa docs` (Markdown and HTML) and `isa build`
//! (all of them for every spec in a directory). Programs of the
//! built-in targets: `isa targets`, `isa decode`, `isa disasm`, `isa asm` and `isa validate`,
//! all written once over [`isa_runtime::target::Target`], never per target.
//!
//! Exit codes: 0 success, 1 errors in the input (see [`error`]), 2 a bad command line.

#[cfg(feature = "targets")]
mod builtin;
mod commands;
mod error;
mod files;
#[cfg(feature = "targets")]
mod listing;
#[cfg(feature = "targets")]
mod words;

use clap::{Args, Parser, Subcommand};
use commands::spec;
#[cfg(feature = "targets")]
use commands::{asm, decode, disasm, header, layout, targets, validate};
use error::{Outcome, Result};
use std::path::PathBuf;
use std::process::ExitCode;

/// Compile GPU instruction-set specs; decode, disassemble, assemble and validate programs.
#[derive(Parser)]
#[command(name = "isa", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The target (and dialect) a program command works on.
#[derive(Args)]
struct TargetArgs {
    /// Built-in target (see `isa targets`).
    #[arg(long, short, value_name = "TARGET")]
    target: String,
    /// Syntax dialect; the target's default dialect if not given.
    #[arg(long, short, value_name = "DIALECT")]
    dialect: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Check a spec file: print its diagnostics, or a one-line summary.
    Check {
        /// The `.isa` spec file.
        file: PathBuf,
    },
    /// Generate the Rust module of a spec as DIR/<target>.rs.
    Gen {
        /// The `.isa` spec file.
        file: PathBuf,
        /// Output directory (created if missing).
        #[arg(short = 'o', long = "out-dir", value_name = "DIR")]
        out: PathBuf,
    },
    /// Generate the documentation of a spec as DIR/<target>.md and DIR/<target>.html.
    Docs {
        /// The `.isa` spec file.
        file: PathBuf,
        /// Output directory (created if missing).
        #[arg(short = 'o', long = "out-dir", value_name = "DIR")]
        out: PathBuf,
    },
    /// Compile every spec in a directory: check it, write DIR/rust/<target>.rs and
    /// DIR/docs/<target>.{md,html}.
    Build {
        /// Directory of `.isa` specs.
        #[arg(default_value = "isa-specs")]
        specs: PathBuf,
        /// Output directory (created if missing).
        #[arg(short = 'o', long = "out-dir", value_name = "DIR", default_value = "target/isa")]
        out: PathBuf,
    },
    /// List the built-in targets: name, unit (instruction word or header), what it holds (encodings and dialects, default first; the root data layout; ABI layouts), title.
    Targets,
    /// Decode hex words given as arguments, or read from standard input (every hex form that
    /// `isa disasm --help` lists). Each word's text is in the chosen dialect; a word that
    /// dialect cannot show is printed in the first dialect that can, named in a comment. For a
    /// data-layout target (`sph`): its 32-bit hex words as arguments, or `--file` (binary, or
    /// text of hex words).
    Decode {
        #[command(flatten)]
        target: TargetArgs,
        /// Print one JSON object per word: word, instruction and fields (for a data layout: the
        /// layout's fields, which `isa encode` reads back).
        #[arg(long)]
        json: bool,
        /// A data layout's file: its bytes, or its hex words as text (`-`: standard input).
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// Hex words (`0x` prefix and `_` separators allowed; 8-digit 32-bit pieces of wider
        /// words in the target's byte order).
        #[arg(value_name = "HEXWORD")]
        words: Vec<String>,
    },
    /// Build a data layout (`--target sph`) from JSON of the shape `decode --json` prints.
    Encode {
        /// Built-in data-layout target (see `isa targets`).
        #[arg(long, short, value_name = "TARGET")]
        target: String,
        /// The JSON file (`-` for standard input).
        file: PathBuf,
        /// Output file; standard output if not given.
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        out: Option<PathBuf>,
        /// Write the layout's 32-bit words in hex, one per line, instead of its bytes.
        #[arg(long)]
        hex: bool,
    },
    /// Disassemble a program: binary words in the target's byte order, or hex text with --hex.
    ///
    /// The listing assembles back to the same bytes (`isa asm`): a word the dialect cannot
    /// show, or that does not decode, is printed as the dialect's raw directive (`.long 0x...`)
    /// with the reason as a comment. On a target with scheduling control words the first word
    /// of every group is read as one; a control word that cannot be read is written as it is
    /// with the spec's `raw_control` directive (Maxwell: `.control 0x...`) before its group's
    /// instructions, or its group listed as raw words in a spec without one, and the listing goes on. Exit status 1 when a word did not decode.
    /// The program is read and listed as a stream (memory stays flat whatever its size);
    /// branch targets print as displacements, so no first pass over it is needed.
    ///
    /// Hex text (here, in `decode` and `validate`) is read in these forms:
    /// words one or several to a line, separated by blanks or commas, with or without `0x`
    /// (`_` separators allowed); `#` and `//` comments; a leading `address:` is skipped; after
    /// a line's leading words (written alike: all with `0x`, or all bare with as many digits)
    /// the rest of the line is text and ignored (Mesa's and envydis' dumps); a text whose
    /// first words are in nvdisasm's or cuobjdump's `/* 0x... */` comments is read from those
    /// comments alone, its heading before them ignored; on a
    /// target with words wider than 32 bits a token of exactly 8 digits is a 32-bit piece, and
    /// consecutive pieces make one word in the target's byte order (vc4asm's `-c` output:
    /// `0x20820df7, 0xd14059e5,` is the 64-bit word 0xd14059e520820df7).
    Disasm {
        #[command(flatten)]
        target: TargetArgs,
        /// The file holds hex text (forms above) instead of binary.
        #[arg(long)]
        hex: bool,
        /// Every word is an instruction: read no control words of an interleaved stream (for a
        /// target that has them, such as a list of instruction words that `decode` reads).
        #[arg(long = "no-control-words", visible_alias = "no-schedule")]
        no_control_words: bool,
        /// Prefix each line with the instruction's byte address.
        #[arg(long)]
        address: bool,
        /// Print the listing the dialect's disassembler prints, for side-by-side diffing (a
        /// dialect with a `listing` layout on a target with control words; Maxwell:
        /// `nvdisasm -hex`): each instruction after its address (`/*0008*/`), each word,
        /// control words included, in a comment, and on the text what the control words
        /// imply: the marks the stream declares (`R4.reuse`) and dual-issued pairs in their
        /// marks (`{ ... }`). `isa asm` reads it back to the same bytes.
        #[arg(long, conflicts_with_all = ["no_control_words", "address"])]
        listing: bool,
        /// The program (`-` for standard input).
        file: PathBuf,
    },
    /// Assemble a source file into binary words (or hex text with --hex).
    ///
    /// cuobjdump's `-sass` and nvdisasm's `-hex` listings are read too: each instruction from
    /// its text (so an edited line assembles to its new word), its scheduling slot from the
    /// control word in the listing's `/* 0x... */` comments, so that the listing rebuilds byte
    /// for byte; `{ }` of dual issue and `.reuse` flags, which the control words give, are
    /// dropped from the text. A listing of several functions, each from address 0 (cuobjdump's
    /// of a fatbin, nvdisasm's of a cubin), is assembled at the addresses it lists (the
    /// dialect's `origin`), and nvdisasm's labels (`` `(.L_x_3) ``) stand for theirs. A cubin's
    /// data sections (nvdisasm without `-c`) are errors at their `.section` lines, or left out
    /// and named with `--code-only`.
    ///
    /// The source is read a piece at a time and each word written as it is made, binary, hex or
    /// JSON (a listing's pieces cut after a group's words), so memory stays flat whatever its
    /// size; standard input is copied to a temporary file first (the source is read twice).
    Asm {
        #[command(flatten)]
        target: TargetArgs,
        /// The source file (`-` for standard input).
        file: PathBuf,
        /// Output file; standard output if not given.
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        out: Option<PathBuf>,
        /// Write hex words, one per line, instead of binary.
        #[arg(long)]
        hex: bool,
        /// Write one JSON object: the program's words as 32-bit hex parts in upload order under
        /// `streams`, the target's program summaries under `settings` (a bundled target's
        /// programs are always written so).
        #[arg(long, conflicts_with = "hex")]
        json: bool,
        /// A directory to search for `.include`d files (after the including file's own for
        /// `"file"`, before it for `<file>`); give it several times for several.
        #[arg(short = 'I', long = "include", value_name = "DIR")]
        include: Vec<PathBuf>,
        /// A file assembled before the source, found as given or in the `-I` directories
        /// (vc4asm's `-i vc4.qinc`); give it several times for several, read in that order.
        #[arg(short = 'i', long = "prelude", value_name = "FILE")]
        prelude: Vec<PathBuf>,
        /// Also check the assembled program against the spec's constraints and program rules
        /// (hazards between neighbouring instructions), each broken one a warning at its
        /// instruction's line (vc4asm's `-V`); the program is written all the same.
        #[arg(short = 'V', long)]
        validate: bool,
        /// Every statement is an instruction: write no control words of an interleaved stream
        /// and count none in addresses (for a target that has them; what `disasm
        /// --no-control-words` prints assembles back to its words).
        #[arg(long = "no-control-words", visible_alias = "no-schedule")]
        no_control_words: bool,
        /// Of a listing of a cubin with its data sections (nvdisasm without `-c`: `.nv.info`,
        /// `.nv.constant0.<kernel>`, ...), assemble the code sections only and name the data
        /// sections left out; without it they are errors at their `.section` lines (their
        /// data names ELF symbols, which `isa asm` does not write).
        #[arg(long = "code-only")]
        code_only: bool,
    },
    /// List a target's ABI and data layouts and their parameters, or place one: each member's
    /// offset and width in bits (and its registers) and the total size, for `name=value`
    /// parameters (`isa layout --target agx VertexPrologUniforms n=3 compute=false`; a data
    /// layout's nested members by dotted name, a union's arm by its tag: `--target sph Sph
    /// sph_type=PS`).
    Layout {
        /// Built-in target (see `isa targets`).
        #[arg(long, short, value_name = "TARGET")]
        target: String,
        /// Print `{"layout", "size", "fields": [{"name", "offset", "width"}]}` (bits).
        #[arg(long)]
        json: bool,
        /// The layout; without it, the target's layouts are listed.
        #[arg(value_name = "LAYOUT")]
        layout: Option<String>,
        /// Parameter values, `name=value` (numbers, `true`, `false`, or a value's name).
        #[arg(value_name = "PARAM=VALUE")]
        params: Vec<String>,
    },
    /// Decode a program and run the target's validators; print each rule broken.
    ///
    /// Each broken rule is listed at its instruction (address and text), the first five of
    /// each rule (`--all` for every one) and one line for the rest of that rule; then one line
    /// on standard error counts the errors and warnings (exit 1 when there is an error). A
    /// program that breaks no rule prints one `ok` line with its count of instructions.
    ///
    /// The program is read, decoded and checked as a stream: only the instructions the rules
    /// read around each one are held (four for vc4), the whole program only for a rule that
    /// may read anywhere in it (a note on standard error names it).
    ///
    /// A header target's file (`--target sph`) is one header, whose constraints are listed
    /// alike: the first five of each rule (`--all` for every one), then one line for the rest.
    Validate {
        /// Built-in target (see `isa targets`).
        #[arg(long, short, value_name = "TARGET")]
        target: String,
        /// The file holds hex text (the forms `isa disasm --help` lists) instead of binary.
        #[arg(long)]
        hex: bool,
        /// List every violation, not only the first five of each rule.
        #[arg(long)]
        all: bool,
        /// The program (`-` for standard input).
        file: PathBuf,
    },
}

/// Runs one command.
fn run(command: Command) -> Result<Outcome> {
    match command {
        Command::Check { file } => spec::check(&file),
        Command::Gen { file, out } => spec::gen(&file, &out),
        Command::Docs { file, out } => spec::docs(&file, &out),
        Command::Build { specs, out } => spec::build(&specs, &out),
        #[cfg(feature = "targets")]
        Command::Targets => targets::run(),
        #[cfg(feature = "targets")]
        Command::Decode { target, json, file, words } => {
            if let Some(t) = builtin::find_data_target(&target.target) {
                let input = match &file {
                    Some(path) => header::Input::File(path),
                    None => header::Input::Words(&words),
                };
                return header::decode(t, &input, json);
            }
            if file.is_some() {
                return Err(error::Error::Usage(
                    "`--file` is for data-layout targets; use `isa disasm` for programs".into(),
                ));
            }
            let (t, d) = target.resolve()?;
            decode::run(t, d, json, &words)
        }
        #[cfg(feature = "targets")]
        Command::Encode { target, file, out, hex } => match builtin::find_data_target(&target) {
            Some(t) => header::encode(t, &file, out.as_deref(), hex),
            None => {
                builtin::find_target(&target)?;
                Err(error::Error::Usage(format!(
                    "`isa encode` builds data layouts; `{target}` has instructions: use `isa asm`"
                )))
            }
        },
        #[cfg(feature = "targets")]
        Command::Disasm { target, hex, no_control_words, address, listing, file } => {
            let (t, d) = target.resolve()?;
            let opts = disasm::Options { file: &file, hex, address, no_control_words, listing };
            disasm::run(t, d, &opts)
        }
        #[cfg(feature = "targets")]
        Command::Asm {
            target,
            file,
            out,
            hex,
            json,
            include,
            prelude,
            validate,
            no_control_words,
            code_only,
        } => {
            let (t, d) = target.resolve()?;
            let opts = asm::Options {
                file: &file,
                out: out.as_deref(),
                hex,
                json,
                include: &include,
                prelude: &prelude,
                validate,
                no_control_words,
                code_only,
            };
            asm::run(t, d, &opts)
        }
        #[cfg(feature = "targets")]
        Command::Layout { target, json, layout: name, params } => {
            layout::run(&target, name.as_deref(), &params, json)
        }
        #[cfg(feature = "targets")]
        Command::Validate { target, hex, all, file } => match builtin::find_data_target(&target) {
            Some(t) => header::validate(t, &header::Input::File(&file), all),
            None => validate::run(builtin::find_target(&target)?, &file, hex, all),
        },
        // Without its targets every target name is unknown (and none is listed).
        #[cfg(not(feature = "targets"))]
        Command::Targets => Ok(Outcome::Success),
        #[cfg(not(feature = "targets"))]
        Command::Decode { target: TargetArgs { target, .. }, .. }
        | Command::Disasm { target: TargetArgs { target, .. }, .. }
        | Command::Asm { target: TargetArgs { target, .. }, .. }
        | Command::Encode { target, .. }
        | Command::Layout { target, .. }
        | Command::Validate { target, .. } => Err(error::Error::Usage(format!(
            "unknown target `{target}`: this `isa` was built without its targets (cargo feature `targets`)"
        ))),
    }
}

#[cfg(feature = "targets")]
impl TargetArgs {
    /// The named target and the index of the chosen dialect.
    fn resolve(&self) -> Result<(&'static dyn isa_runtime::target::Target, usize)> {
        let target = builtin::find_target(&self.target)?;
        let dialect = builtin::find_dialect(target, self.dialect.as_deref())?;
        Ok((target, dialect))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Failure) => ExitCode::from(1),
        Err(error::Error::BrokenPipe) => ExitCode::SUCCESS,
        Err(e) => {
            commands::complain(format_args!("isa: error: {e}\n"));
            ExitCode::from(e.exit_code())
        }
    }
}
