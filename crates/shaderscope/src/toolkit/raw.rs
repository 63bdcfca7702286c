//! The one byte-order model of the toolkit, in the manner of gimli-rs/object's `endian`
//! module: a [`ByteOrder`] trait implemented by the run-time order [`Endian`] and by the
//! compile-time orders [`LittleEndian`] and [`BigEndian`] (zero-sized), and integer field types
//! ([`U16`], [`U32`], …) that hold their bytes as stored and are read with the order as a
//! value. A fixed-layout structure is declared once, `#[repr(C)]` with the field names of the
//! format's documentation, and read in place with [`Reader::read_at`](super::Reader::read_at)
//! (fields have alignment 1, so a structure can sit at any offset) whether its order is fixed
//! (`U32<BigEndian>`: GFD) or known only once the file is read (`U32<Endian>`: SHARCFB, whose
//! magic tells); it is written back as its bytes (`zerocopy::IntoBytes::as_bytes`), and
//! `core::mem::offset_of!` gives `dump` each field's offset.
//!
//! [`U32::get_in`] and [`U32::new_in`] take the order as a value and work for every order;
//! for a compile-time order [`U32::get`] and [`U32::new`] need none.
//!
//! ```
//! use shaderscope::toolkit::raw::{BigEndian, ByteOrder, LittleEndian, U32};
//! use shaderscope::toolkit::{Endian, FourCC, Reader};
//! use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};
//!
//! /// A chunk header, in the byte order `O`.
//! #[derive(FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
//! #[repr(C)]
//! struct ChunkHeader<O: ByteOrder> {
//!     fourcc: FourCC,
//!     size: U32<O>,
//! }
//!
//! // Order fixed at compile time.
//! let le = Reader::new(b"DBIN\x10\0\0\0", Endian::Little);
//! let h: &ChunkHeader<LittleEndian> = le.read_at(0, "chunk header")?;
//! assert_eq!(h.size.get(), 16);
//! // Order known at run time: the same declaration, the order passed as a value.
//! let be = Reader::new(b"NIBD\0\0\0\x10", Endian::Big);
//! let h: &ChunkHeader<Endian> = be.read_at(0, "chunk header")?;
//! assert_eq!((h.fourcc.0, h.size.get_in(be.endian())), (*b"NIBD", 16));
//! // Written back: the bytes of the structure.
//! let h = ChunkHeader { fourcc: FourCC(*b"NIBD"), size: U32::new_in(Endian::Big, 16) };
//! assert_eq!(h.as_bytes(), b"NIBD\0\0\0\x10");
//! assert_eq!(ChunkHeader::<BigEndian> { fourcc: FourCC(*b"NIBD"), size: U32::new(16) }.as_bytes(), h.as_bytes());
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::bytes::Endian;
use std::fmt;
use std::marker::PhantomData;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// A byte order, known at compile time ([`LittleEndian`], [`BigEndian`]) or at run time
/// ([`Endian`]).
pub trait ByteOrder: Copy + fmt::Debug + Eq + 'static {
    /// The order as a run-time value.
    fn endian(self) -> Endian;

    /// Whether the most significant byte comes first.
    #[inline]
    fn is_big(self) -> bool {
        self.endian() == Endian::Big
    }
}

/// A byte order fixed at compile time: a zero-sized type whose value need not be passed.
pub trait StaticOrder: ByteOrder + Default {}

/// Least significant byte first, at compile time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct LittleEndian;

/// Most significant byte first, at compile time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct BigEndian;

impl ByteOrder for LittleEndian {
    #[inline]
    fn endian(self) -> Endian {
        Endian::Little
    }
}

impl ByteOrder for BigEndian {
    #[inline]
    fn endian(self) -> Endian {
        Endian::Big
    }
}

impl ByteOrder for Endian {
    #[inline]
    fn endian(self) -> Endian {
        self
    }
}

impl StaticOrder for LittleEndian {}
impl StaticOrder for BigEndian {}

macro_rules! field_type {
    ($(#[$doc:meta])* $name:ident, $int:ty, $n:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
        #[repr(transparent)]
        pub struct $name<O>([u8; $n], PhantomData<O>);

        impl<O: ByteOrder> $name<O> {
            /// The value, reading the bytes in `order`.
            #[inline]
            pub fn get_in(self, order: O) -> $int {
                if order.is_big() { <$int>::from_be_bytes(self.0) } else { <$int>::from_le_bytes(self.0) }
            }

            /// `v` stored in `order`.
            #[inline]
            pub fn new_in(order: O, v: $int) -> Self {
                let b = if order.is_big() { v.to_be_bytes() } else { v.to_le_bytes() };
                $name(b, PhantomData)
            }

            /// Store `v` in `order`.
            #[inline]
            pub fn set_in(&mut self, order: O, v: $int) {
                *self = Self::new_in(order, v);
            }

            /// The bytes as stored.
            #[inline]
            pub fn bytes(self) -> [u8; $n] {
                self.0
            }
        }

        impl<O: StaticOrder> $name<O> {
            /// The value, in the type's order.
            #[inline]
            pub fn get(self) -> $int {
                self.get_in(O::default())
            }

            /// `v` stored in the type's order.
            #[inline]
            pub fn new(v: $int) -> Self {
                Self::new_in(O::default(), v)
            }

            /// Store `v` in the type's order.
            #[inline]
            pub fn set(&mut self, v: $int) {
                self.set_in(O::default(), v)
            }
        }

        impl<O> Default for $name<O> {
            fn default() -> Self {
                $name([0; $n], PhantomData)
            }
        }

        /// The bytes as stored (the order is not known to the value alone).
        impl<O> fmt::Debug for $name<O> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}(", stringify!($name))?;
                for b in self.0 {
                    write!(f, "{b:02x}")?;
                }
                f.write_str(")")
            }
        }
    };
}

field_type!(
    /// A 16-bit unsigned integer stored in the byte order `O`.
    U16, u16, 2
);
field_type!(
    /// A 32-bit unsigned integer stored in the byte order `O`.
    U32, u32, 4
);
field_type!(
    /// A 64-bit unsigned integer stored in the byte order `O`.
    U64, u64, 8
);
field_type!(
    /// A 16-bit signed integer stored in the byte order `O`.
    I16, i16, 2
);
field_type!(
    /// A 32-bit signed integer stored in the byte order `O`.
    I32, i32, 4
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_field_type_reads_and_writes_every_order() {
        let b = U32::<BigEndian>::new(0x0102_0304);
        assert_eq!(b.as_bytes(), [1, 2, 3, 4]);
        assert_eq!(b.get_in(BigEndian), 0x0102_0304);
        let l = U32::<LittleEndian>::new(0x0102_0304);
        assert_eq!(l.as_bytes(), [4, 3, 2, 1]);
        for (order, bytes) in [(Endian::Big, [1, 2, 3, 4]), (Endian::Little, [4, 3, 2, 1])] {
            let mut r = U32::new_in(order, 0x0102_0304);
            assert_eq!(r.as_bytes(), bytes);
            assert_eq!(r.get_in(order), 0x0102_0304);
            r.set_in(order, 7);
            assert_eq!(r.get_in(order), 7);
        }
        assert_eq!(I32::<Endian>::new_in(Endian::Big, -2).bytes(), [0xff, 0xff, 0xff, 0xfe]);
        assert_eq!(U16::<LittleEndian>::read_from_bytes(&[1, 2]).map(|v| v.get()), Ok(0x0201));
        assert_eq!(format!("{:?}", U16::<Endian>::new_in(Endian::Big, 0xabc)), "U16(0abc)");
    }
}
