// flak_bake's file safety: what it may write over, how a blob reaches the disk (a hidden
// temporary file beside the output, renamed into place, removed on error and on SIGINT, SIGTERM
// and SIGHUP), and how blobs are read for inspect and verify (regular files of a bounded size).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flak::bake {

/// The largest file inspect and verify read: a blob's total_bytes is a 32-bit field.
constexpr std::uint64_t kMaxBlobFileBytes = 0xFFFFFFFFull;

/// Empty when `output` may be written: a new name, or an existing regular file that is none of
/// `inputs`. Otherwise why not (a directory, device, fifo or socket; an input itself; a path the
/// baker cannot examine).
std::string refuseOutput(const std::string& output, const std::vector<std::string>& inputs);

/// Writes `bytes` to `output` whole or not at all: into a temporary file `.NAME.flak-tmp-XXXXXX`
/// in the output's directory (created exclusively, so a stale one from a killed bake is never
/// reused or mistaken for output), flushed to disk, then renamed over `output`. The temporary
/// file is removed on any error and if SIGINT, SIGTERM or SIGHUP arrives meanwhile (the signal
/// then ends the process as it would have). Empty on success, else the reason.
std::string writeWhole(const std::string& output, const std::vector<unsigned char>& bytes);

/// Reads a blob file for inspect or verify: only a regular, non-empty file of at most
/// kMaxBlobFileBytes. Empty on success, else the reason.
std::string readBlobFile(const std::string& path, std::vector<unsigned char>& out);

} // namespace flak::bake
