//! Every integration test of the workspace in one binary: the generated targets are linked
//! once, not once per file. Each module is one concern (a target and what it checks).

mod agx_abi;
mod agx_instructions;
mod derive_bitfield;
mod doc_links;
mod docs_fresh;
mod elementary;
mod from_str;
mod fuzz;
mod listings;
mod maxwell_facts;
mod maxwell_golden;
mod maxwell_interp;
mod maxwell_program;
mod maxwell_roundtrip;
mod maxwell_validate;
mod msrv;
mod printers;
mod sph_docs_tables;
mod sph_offsets;
mod sph_reserved;
mod sph_roundtrip;
mod sph_validate;
mod statements_directives;
mod tegra_fs_programs;
mod tegra_fs_roundtrip;
mod tegra_vs_programs;
mod tegra_vs_roundtrip;
mod vc4_directives;
mod vc4_facts;
mod vc4_golden;
mod vc4_gpu_fft;
mod vc4_interp;
mod vc4_labels;
mod vc4_roundtrip;
mod vc4_validate;
