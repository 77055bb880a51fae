// Test helper: a small PNG writer, from the PNG and zlib/deflate specifications:
// chunks with their CRC-32, zlib streams of stored blocks, and a "bomb" stream that
// inflates to far more than it holds. For fixtures only; nothing here is tuned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kinema::test {

using Bytes = std::vector<std::uint8_t>;

inline std::uint32_t crc32(const Bytes& bytes, std::size_t from) {
    std::uint32_t crc = 0xffffffffu;
    for (std::size_t i = from; i < bytes.size(); ++i) {
        crc ^= bytes[i];
        for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

struct Adler32 {
    std::uint32_t a = 1, b = 0;
    void add(std::uint8_t byte) {
        a = (a + byte) % 65521;
        b = (b + a) % 65521;
    }
    std::uint32_t value() const { return b << 16 | a; }
};

inline void putBigEndian32(Bytes& out, std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

inline void chunk(Bytes& png, const char (&type)[5], const Bytes& data) {
    putBigEndian32(png, static_cast<std::uint32_t>(data.size()));
    const std::size_t typeAt = png.size();
    png.insert(png.end(), type, type + 4);
    png.insert(png.end(), data.begin(), data.end());
    putBigEndian32(png, crc32(png, typeAt));
}

// colorType 6: RGBA, 2: RGB; 8 bits per sample, no interlace.
inline Bytes png(std::uint32_t width, std::uint32_t height, std::uint8_t colorType, const Bytes& zlibStream) {
    Bytes out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    Bytes ihdr;
    putBigEndian32(ihdr, width);
    putBigEndian32(ihdr, height);
    ihdr.insert(ihdr.end(), {8, colorType, 0, 0, 0});
    chunk(out, "IHDR", ihdr);
    chunk(out, "IDAT", zlibStream);
    chunk(out, "IEND", {});
    return out;
}

// A zlib stream of stored (uncompressed) deflate blocks.
inline Bytes zlibStored(const Bytes& data) {
    Bytes out{0x78, 0x01};  // deflate, 32 KiB window; 0x7801 is a multiple of 31
    std::size_t at = 0;
    do {
        const std::size_t n = std::min<std::size_t>(data.size() - at, 65535);
        out.push_back(at + n == data.size() ? 1 : 0);  // BFINAL, BTYPE 00
        out.push_back(static_cast<std::uint8_t>(n));
        out.push_back(static_cast<std::uint8_t>(n >> 8));
        out.push_back(static_cast<std::uint8_t>(~n));
        out.push_back(static_cast<std::uint8_t>(~n >> 8));
        out.insert(out.end(), data.begin() + static_cast<std::ptrdiff_t>(at),
                   data.begin() + static_cast<std::ptrdiff_t>(at + n));
        at += n;
    } while (at < data.size());
    Adler32 adler;
    for (auto byte : data) adler.add(byte);
    putBigEndian32(out, adler.value());
    return out;
}

// Deflate packs bits from the least significant end; Huffman codes go most significant bit first.
struct BitWriter {
    Bytes out;
    int used = 8;
    void bit(unsigned b) {
        if (used == 8) {
            out.push_back(0);
            used = 0;
        }
        out.back() = static_cast<std::uint8_t>(out.back() | (b & 1u) << used++);
    }
    void value(unsigned v, int count) {
        for (int i = 0; i < count; ++i) bit(v >> i);
    }
    void code(unsigned c, int length) {
        for (int i = length - 1; i >= 0; --i) bit(c >> i);
    }
    // Fixed Huffman literal/length codes (RFC 1951 3.2.6).
    void literal(unsigned symbol) {
        if (symbol < 144)
            code(0x30 + symbol, 8);
        else if (symbol < 256)
            code(0x190 + symbol - 144, 9);
        else if (symbol < 280)
            code(symbol - 256, 7);
        else
            code(0xc0 + symbol - 280, 8);
    }
};

// A zlib stream that inflates to `prefix` followed by copies of its last byte, `total`
// bytes in all: each copy of 258 bytes at distance 1 costs 13 bits.
inline Bytes zlibBomb(const Bytes& prefix, std::size_t total) {
    BitWriter bits;
    bits.value(0x78, 8);  // zlib header, as in zlibStored
    bits.value(0x01, 8);
    bits.value(1, 1);  // BFINAL
    bits.value(1, 2);  // BTYPE 01: fixed Huffman
    Adler32 adler;
    for (auto byte : prefix) {
        bits.literal(byte);
        adler.add(byte);
    }
    std::size_t size = prefix.size();
    while (size + 258 <= total) {
        bits.literal(285);  // length 258, no extra bits
        bits.code(0, 5);    // distance code 0: distance 1
        for (int i = 0; i < 258; ++i) adler.add(prefix.back());
        size += 258;
    }
    bits.literal(256);  // end of block
    Bytes out = std::move(bits.out);
    putBigEndian32(out, adler.value());
    return out;
}

}  // namespace kinema::test
