//! The owned [`Instruction`] → tokens: the way back from [`decode`](super::decode), and where
//! the assembler ([`super::asm`]) hands the instructions it reads.
//!
//! The instruction token is written as the instruction holds it, but for its length field
//! (bits 24–27), which from shader model 2 on is the count of the operands' tokens; then the
//! operands' tokens in order, each parameter followed by its relative-address token where it
//! has one. Decoding a program and encoding every instruction gives back the tokens read
//! (tests/d3d9_corpus.rs shows it over every Direct3D 9 program of the corpus).
//!
//! ```
//! use shaderscope::isa::d3d9::{Instruction, Operand, Operands, Param, Version};
//!
//! // vs_2_0 `mov r0, c3[a0.x]`, built from its parts; the encoder writes the length (3).
//! let dst = Operand::Dst(Param { token: 0x800f_0000, rel: None, offset: 0 });
//! let src = Operand::Src(Param { token: 0xa0e4_2003, rel: Some(0xb000_0000), offset: 0 });
//! let mov = Instruction::new(0x40, 0x0000_0001, Operands::from_slice(&[dst, src]));
//! let vs_2_0 = Version::from_token(0xfffe_0200).unwrap();
//! let mut words = Vec::new();
//! mov.encode(vs_2_0, &mut words)?;
//! assert_eq!(words, [0x0300_0001, 0x800f_0000, 0xa0e4_2003, 0xb000_0000]);
//! # Ok::<(), shaderscope::Error>(())
//! ```

use super::Version;
use super::decode::{Instruction, Operand};
use super::fields::D3DSI_INSTLENGTH;
use crate::error::{Error, Result};

impl Instruction {
    /// Append the instruction's tokens to `out`. From shader model 2 on the length field is
    /// the operands' token count, which must fit its four bits, and a parameter has an
    /// address token exactly when its bit 13 says it is relative; shader model 1 writes the
    /// instruction token as it is and no address tokens.
    pub fn encode(&self, version: Version, out: &mut Vec<u32>) -> Result<()> {
        let mut token = self.token;
        if version.has_lengths() {
            let len = self.body_tokens();
            if len > 15 {
                return Err(Error::invalid(
                    self.offset,
                    "D3D9 instruction",
                    format!("{len} tokens after the instruction token; its length field holds at most 15"),
                ));
            }
            token = token & !D3DSI_INSTLENGTH.mask::<u32>() | D3DSI_INSTLENGTH.put(len as u32);
        }
        for op in &self.operands {
            if let Operand::Dst(p) | Operand::Pred(p) | Operand::Src(p) = op {
                let wanted = version.has_lengths() && p.is_relative();
                if p.rel.is_some() != wanted {
                    let why = if wanted {
                        "a relative parameter without its address token"
                    } else {
                        "an address token after a parameter that is not relative (or in shader model 1)"
                    };
                    return Err(Error::invalid(p.offset, "D3D9 parameter", why));
                }
            }
        }
        out.reserve(1 + self.body_tokens());
        out.push(token);
        out.extend(self.tokens());
        Ok(())
    }
}
