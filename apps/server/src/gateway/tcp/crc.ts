/**
 * The two checksums of the binary protocols, bit by bit (frames are small, a
 * table buys nothing measurable here).
 */

/** CRC-16/IBM (also called ARC): reflected polynomial 0xA001, initial 0. Teltonika's AVL and Codec 12 frames. */
export function crc16Ibm(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0;
  for (let i = start; i < end; i++) {
    crc ^= data[i]!;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc;
}

/** CRC-16/X-25 (CRC-ITU in Concox's documents): reflected 0x8408, initial and final XOR 0xFFFF. GT06 frames. */
export function crc16X25(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) {
    crc ^= data[i]!;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return ~crc & 0xffff;
}
