// A small PNG writer and reader for RGB8 images: the sample's screenshots and the test that
// checks them. zlib compresses when the build has it; without zlib the writer emits stored
// (uncompressed) deflate blocks, which the reader also decodes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flak::sample {

/// An 8-bit RGB image, rows top first, tightly packed (width * 3 bytes a row).
struct RgbImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> rgb;
    /// Pixel (x, y) as 0xRRGGBB; x, y must be in range.
    std::uint32_t at(int x, int y) const {
        const std::size_t i = 3u * (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                                    static_cast<std::size_t>(x));
        return (std::uint32_t{rgb[i]} << 16) | (std::uint32_t{rgb[i + 1]} << 8) | std::uint32_t{rgb[i + 2]};
    }
};

/// Writes `image` as a PNG file (colour type 2, 8 bits, filter chosen per row). False with a
/// message on an I/O error or a malformed image.
bool writePng(const std::string& path, const RgbImage& image, std::string& error);

/// Reads an 8-bit RGB or RGBA, non-interlaced PNG (alpha dropped). Checks every chunk CRC and
/// the zlib Adler-32. False with a message for anything else.
bool readPng(const std::string& path, RgbImage& out_image, std::string& error);

} // namespace flak::sample
