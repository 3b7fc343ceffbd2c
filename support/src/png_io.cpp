// PNG (RFC 2083 / ISO 15948) for RGB8 screenshots: chunks with CRC-32, a zlib stream (RFC 1950)
// with Adler-32, and the five row filters. Compression by zlib when FLAK_HAVE_ZLIB; otherwise
// stored deflate blocks (RFC 1951 §3.2.4), which need no compressor at all.
#include "flak_support/png_io.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#if FLAK_HAVE_ZLIB
#include <zlib.h>
#endif

namespace flak::sample {

namespace {

const std::array<std::uint32_t, 256>& crcTable() {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1u) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    return table;
}

std::uint32_t crc32(const std::uint8_t* data, std::size_t size, std::uint32_t crc = 0) {
    crc = ~crc;
    for (std::size_t i = 0; i < size; ++i) crc = crcTable()[(crc ^ data[i]) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}

std::uint32_t adler32(const std::uint8_t* data, std::size_t size) {
    std::uint32_t a = 1, b = 0;
    for (std::size_t i = 0; i < size; ++i) {
        a = (a + data[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

void putU32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    out.push_back(static_cast<std::uint8_t>(v >> 24));
    out.push_back(static_cast<std::uint8_t>(v >> 16));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
    out.push_back(static_cast<std::uint8_t>(v));
}

std::uint32_t getU32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

void putChunk(std::vector<std::uint8_t>& out, const char type[4], const std::vector<std::uint8_t>& data) {
    putU32(out, static_cast<std::uint32_t>(data.size()));
    const std::size_t start = out.size();
    out.insert(out.end(), type, type + 4);
    out.insert(out.end(), data.begin(), data.end());
    putU32(out, crc32(out.data() + start, out.size() - start));
}

int paeth(int a, int b, int c) {
    const int p = a + b - c;
    const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

// What PNG filter type `filter` predicts for a byte from its left (a), upper (b) and upper-left (c)
// neighbours; 0 for type 0 and unknown types.
int predictor(int filter, int a, int b, int c) {
    switch (filter) {
    case 1: return a;
    case 2: return b;
    case 3: return (a + b) / 2;
    case 4: return paeth(a, b, c);
    default: return 0;
    }
}

// Filter type `filter` applied to `row` (bpp bytes a pixel) against the row above (`prior`,
// zeros for the first row), written to `out`.
void filterRow(int filter, const std::uint8_t* row, const std::uint8_t* prior, std::size_t size,
               std::size_t bpp, std::uint8_t* out) {
    for (std::size_t i = 0; i < size; ++i) {
        const int a = i >= bpp ? row[i - bpp] : 0;
        const int b = prior[i];
        const int c = i >= bpp ? prior[i - bpp] : 0;
        const int predicted = predictor(filter, a, b, c);
        out[i] = static_cast<std::uint8_t>(row[i] - predicted);
    }
}

void unfilterRow(int filter, std::uint8_t* row, const std::uint8_t* prior, std::size_t size,
                 std::size_t bpp) {
    for (std::size_t i = 0; i < size; ++i) {
        const int a = i >= bpp ? row[i - bpp] : 0;
        const int b = prior[i];
        const int c = i >= bpp ? prior[i - bpp] : 0;
        const int predicted = predictor(filter, a, b, c);
        row[i] = static_cast<std::uint8_t>(row[i] + predicted);
    }
}

bool zlibCompress(const std::vector<std::uint8_t>& raw, std::vector<std::uint8_t>& out) {
#if FLAK_HAVE_ZLIB
    uLongf size = compressBound(static_cast<uLong>(raw.size()));
    out.resize(size);
    if (compress2(out.data(), &size, raw.data(), static_cast<uLong>(raw.size()), 9) != Z_OK) return false;
    out.resize(size);
    return true;
#else
    // Stored blocks of at most 65535 bytes each, after the zlib header (deflate, 32K window).
    out.clear();
    out.push_back(0x78);
    out.push_back(0x01);
    std::size_t pos = 0;
    do {
        const std::size_t n = raw.size() - pos < 65535u ? raw.size() - pos : 65535u;
        out.push_back(pos + n == raw.size() ? 1 : 0);
        out.push_back(static_cast<std::uint8_t>(n));
        out.push_back(static_cast<std::uint8_t>(n >> 8));
        out.push_back(static_cast<std::uint8_t>(~n));
        out.push_back(static_cast<std::uint8_t>(~n >> 8));
        out.insert(out.end(), raw.begin() + static_cast<std::ptrdiff_t>(pos),
                   raw.begin() + static_cast<std::ptrdiff_t>(pos + n));
        pos += n;
    } while (pos < raw.size());
    putU32(out, adler32(raw.data(), raw.size()));
    return true;
#endif
}

bool zlibDecompress(const std::vector<std::uint8_t>& z, std::size_t expected, std::vector<std::uint8_t>& out,
                    std::string& error) {
    out.clear();
    if (z.size() < 6 || (z[0] & 0x0F) != 8 || ((z[0] << 8) | z[1]) % 31 != 0) {
        error = "bad zlib header";
        return false;
    }
#if FLAK_HAVE_ZLIB
    out.resize(expected);
    uLongf size = static_cast<uLongf>(expected);
    if (uncompress(out.data(), &size, z.data(), static_cast<uLong>(z.size())) != Z_OK || size != expected) {
        error = "zlib stream does not inflate to the image size";
        return false;
    }
#else
    // Only stored blocks (what the writer makes without zlib).
    std::size_t pos = 2;
    bool last = false;
    while (!last) {
        if (pos + 5 > z.size()) {
            error = "truncated deflate stream";
            return false;
        }
        const std::uint8_t head = z[pos];
        if (((head >> 1) & 3u) != 0) {
            error = "compressed deflate blocks need zlib (this build has none)";
            return false;
        }
        last = (head & 1u) != 0;
        const std::size_t n = std::size_t{z[pos + 1]} | (std::size_t{z[pos + 2]} << 8);
        const std::size_t nn = std::size_t{z[pos + 3]} | (std::size_t{z[pos + 4]} << 8);
        pos += 5;
        if ((n ^ 0xFFFFu) != nn || pos + n > z.size()) {
            error = "bad stored block";
            return false;
        }
        out.insert(out.end(), z.begin() + static_cast<std::ptrdiff_t>(pos),
                   z.begin() + static_cast<std::ptrdiff_t>(pos + n));
        pos += n;
    }
    if (out.size() != expected) {
        error = "deflate stream does not hold the image size";
        return false;
    }
#endif
    const std::size_t tail = z.size() - 4;
    if (getU32(z.data() + tail) != adler32(out.data(), out.size())) {
        error = "Adler-32 mismatch";
        return false;
    }
    return true;
}

} // namespace

bool writePng(const std::string& path, const RgbImage& image, std::string& error) {
    if (image.width <= 0 || image.height <= 0 ||
        image.rgb.size() !=
            3u * static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height)) {
        error = "malformed image";
        return false;
    }
    const std::size_t stride = 3u * static_cast<std::size_t>(image.width);
    std::vector<std::uint8_t> raw((stride + 1) * static_cast<std::size_t>(image.height));
    std::vector<std::uint8_t> zeros(stride, 0), trial(stride);
    for (int y = 0; y < image.height; ++y) {
        const std::uint8_t* row = image.rgb.data() + static_cast<std::size_t>(y) * stride;
        const std::uint8_t* prior = y > 0 ? row - stride : zeros.data();
        std::uint8_t* out = raw.data() + static_cast<std::size_t>(y) * (stride + 1);
        // The usual heuristic: the filter with the smallest sum of absolute (signed) bytes.
        long best_cost = -1;
        for (int filter = 0; filter < 5; ++filter) {
            filterRow(filter, row, prior, stride, 3, trial.data());
            long cost = 0;
            for (std::uint8_t v : trial) cost += v < 128 ? v : 256 - v;
            if (best_cost < 0 || cost < best_cost) {
                best_cost = cost;
                out[0] = static_cast<std::uint8_t>(filter);
                std::memcpy(out + 1, trial.data(), stride);
            }
        }
    }
    std::vector<std::uint8_t> z;
    if (!zlibCompress(raw, z)) {
        error = "compression failed";
        return false;
    }
    std::vector<std::uint8_t> file = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    std::vector<std::uint8_t> ihdr;
    putU32(ihdr, static_cast<std::uint32_t>(image.width));
    putU32(ihdr, static_cast<std::uint32_t>(image.height));
    ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0}); // 8 bits, RGB, deflate, adaptive filters, no interlace
    putChunk(file, "IHDR", ihdr);
    putChunk(file, "IDAT", z);
    putChunk(file, "IEND", {});
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
    if (!out) {
        error = "cannot write " + path;
        return false;
    }
    return true;
}

bool readPng(const std::string& path, RgbImage& out_image, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open " + path;
        return false;
    }
    const std::vector<std::uint8_t> file((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
    static const std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (file.size() < 8 || std::memcmp(file.data(), kSignature, 8) != 0) {
        error = "not a PNG file";
        return false;
    }
    std::size_t pos = 8;
    int width = 0, height = 0, channels = 0;
    std::vector<std::uint8_t> z;
    bool ended = false;
    while (!ended) {
        if (pos + 12 > file.size()) {
            error = "truncated chunk";
            return false;
        }
        const std::uint32_t length = getU32(file.data() + pos);
        if (length > file.size() - pos - 12) {
            error = "chunk runs past the end of the file";
            return false;
        }
        const std::uint8_t* type = file.data() + pos + 4;
        const std::uint8_t* data = type + 4;
        if (getU32(data + length) != crc32(type, length + 4u)) {
            error = "chunk CRC mismatch";
            return false;
        }
        if (std::memcmp(type, "IHDR", 4) == 0) {
            if (length != 13 || data[8] != 8 || (data[9] != 2 && data[9] != 6) || data[10] != 0 ||
                data[11] != 0 || data[12] != 0) {
                error = "only 8-bit RGB or RGBA, non-interlaced PNGs are read";
                return false;
            }
            width = static_cast<int>(getU32(data));
            height = static_cast<int>(getU32(data + 4));
            channels = data[9] == 2 ? 3 : 4;
            if (width <= 0 || height <= 0 || width > 16384 || height > 16384) {
                error = "image size out of range";
                return false;
            }
        } else if (std::memcmp(type, "IDAT", 4) == 0) {
            z.insert(z.end(), data, data + length);
        } else if (std::memcmp(type, "IEND", 4) == 0) {
            ended = true;
        }
        pos += 12u + length;
    }
    if (channels == 0) {
        error = "no IHDR chunk";
        return false;
    }
    const std::size_t stride = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
    std::vector<std::uint8_t> raw;
    if (!zlibDecompress(z, (stride + 1) * static_cast<std::size_t>(height), raw, error)) return false;
    std::vector<std::uint8_t> zeros(stride, 0);
    out_image.width = width;
    out_image.height = height;
    out_image.rgb.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3u, 0);
    for (int y = 0; y < height; ++y) {
        std::uint8_t* line = raw.data() + static_cast<std::size_t>(y) * (stride + 1);
        if (line[0] > 4) {
            error = "bad filter type";
            return false;
        }
        const std::uint8_t* prior = y > 0 ? line - stride : zeros.data();
        unfilterRow(line[0], line + 1, prior, stride, static_cast<std::size_t>(channels));
        for (int x = 0; x < width; ++x) {
            const std::uint8_t* p =
                line + 1 + static_cast<std::size_t>(x) * static_cast<std::size_t>(channels);
            std::uint8_t* q =
                out_image.rgb.data() + 3u * (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                                             static_cast<std::size_t>(x));
            q[0] = p[0];
            q[1] = p[1];
            q[2] = p[2];
        }
    }
    return true;
}

} // namespace flak::sample
