//! Containers: one module per file format. Each parses into a view/model, writes it back, and
//! implements [`crate::Container`]; [`crate::parse`] picks the format from the magic and wraps
//! the model in a [`crate::File`]. Parse with a format's own type when the format is known:
//!
//! ```
//! use shaderscope::Container;
//! use shaderscope::format::{d3d9::D3d9File, dxbc::Dxbc, shbin::Dvlb};
//!
//! // vs_2_0: dcl_position v0; mov oPos, v0; end
//! let words = [0xfffe0200u32, 0x0200001f, 0x80000000, 0x900f0000, 0x02000001, 0xc00f0000, 0x90e40000, 0xffff];
//! let d3d9: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
//! assert_eq!(D3d9File::parse(&d3d9)?.summary(), "vs_2_0, 2 instructions, 1 slot");
//!
//! let shbin = shaderscope::shbin::build::example_vertex_shader();
//! assert_eq!(Dvlb::parse(&shbin)?.dvles.len(), 1);
//!
//! let dxbc = shaderscope::dxbc::write::Builder::new().finish()?;
//! let container = Dxbc::parse(&dxbc)?;
//! assert_eq!((container.chunks().len(), container.checksum_ok()), (0, true));
//!
//! // The same through the format-independent interface.
//! for bytes in [&d3d9, &shbin, &dxbc] {
//!     let file = shaderscope::parse(bytes)?;
//!     assert_eq!(&file.write()?, bytes);
//!     assert!(file.validate().is_empty());
//! }
//! # Ok::<(), shaderscope::Error>(())
//! ```

#[cfg(feature = "direct3d")]
pub mod d3d9;
#[cfg(feature = "direct3d")]
pub mod dxbc;
#[cfg(feature = "direct3d")]
pub mod fx11;
#[cfg(feature = "direct3d")]
pub mod fx9;
#[cfg(feature = "wiiu")]
pub mod gfd;
#[cfg(feature = "wiiu")]
pub mod gx2;
#[cfg(feature = "mali")]
pub mod mbs;
#[cfg(feature = "direct3d")]
pub mod mgfx;
#[cfg(feature = "wiiu")]
pub mod sharc;
#[cfg(feature = "wiiu")]
pub mod sharcfb;
#[cfg(feature = "n3ds")]
pub mod shbin;
#[cfg(feature = "direct3d")]
pub mod xnb;
