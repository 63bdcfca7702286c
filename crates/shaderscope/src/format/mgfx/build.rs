//! Effects built from a model: the sample (`samples/effect.mgfxo`) and test inputs.
/// The sample.
pub fn example() -> Vec<u8> {
    Vec::new()
}
