// Reading raw samples (uint8 or uint16, as stored) from a storage buffer of 32-bit words, so no
// 8/16-bit storage feature is needed: byte offsets are split into a word and a shift. Integer only.
uint sample_at(uint word, uint byte_offset, uint bytes_per_sample) {
  if (bytes_per_sample == 1u) return bitfieldExtract(word, int((byte_offset & 3u) * 8u), 8);
  return bitfieldExtract(word, int((byte_offset & 2u) * 8u), 16);
}
