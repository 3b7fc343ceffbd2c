// The oracle framework shared by every kernel family's tests: double-precision vectors for the
// references, the tolerance band of tolerance.h, per-case seeding (with the FLAK_ORACLE_SEED
// override), hex-float printing of inputs for replay, and the tally every oracle test prints.
//
// A reference computes in double, from float inputs converted exactly, with a method independent
// of the kernel's. A disagreement with the kernel is forgiven only when the reference's decisive
// distance lies within bandOf(scale) (tolerance.h rule 3); every other one is a failure, printed
// with the test's seed, the case index and the inputs as hex floats so that it replays alone.
#pragma once

#include <flak/geom/tolerance.h>
#include <flak/math/vec3.h>

#include "flak_support/split_mix.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

namespace flak::test {

// ---- double vectors -----------------------------------------------------------------------------
struct D3 {
    double x = 0.0, y = 0.0, z = 0.0;
    double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
    double& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
};
/// The float vector in double (exact).
inline D3 d3(const Vec3& v) { return {v.x, v.y, v.z}; }
inline D3 operator+(const D3& a, const D3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline D3 operator-(const D3& a, const D3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline D3 operator*(const D3& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline double dot(const D3& a, const D3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline D3 cross(const D3& a, const D3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double len(const D3& a) { return std::sqrt(dot(a, a)); }

/// Largest absolute coordinate (the scale of tolerance.h rule 3), of double or float inputs; the
/// float forms ignore NaN (std::fmax), the double form is for finite references.
inline double maxAbs(const D3& a) {
    return std::max(std::fabs(a.x), std::max(std::fabs(a.y), std::fabs(a.z)));
}
inline double maxAbs(const Vec3& v) {
    return std::fmax(std::fabs(v.x), std::fmax(std::fabs(v.y), std::fabs(v.z)));
}
inline double maxAbs(float f) { return std::fabs(f); }
template <typename T, typename... Rest> double maxAbs(const T& first, const Rest&... rest) {
    if constexpr (sizeof...(rest) == 0) {
        return maxAbs(first);
    } else {
        return std::fmax(maxAbs(first), maxAbs(rest...));
    }
}

// ---- the tolerance band -------------------------------------------------------------------------
/// band = kToleranceRelative * scale; scale = the largest absolute coordinate of the inputs
/// relative to the kernel's local origin (and radii, lengths), as each kernel header states.
inline double bandOf(double scale) { return static_cast<double>(kToleranceRelative) * scale; }

// ---- seeding ------------------------------------------------------------------------------------
/// Offset added to an oracle test's seed, from the environment variable FLAK_ORACLE_SEED (0 when
/// unset): the same suite can be rerun on fresh random cases; failures print the seed actually used.
inline std::uint64_t oracleSeedOffset() {
    const char* s = std::getenv("FLAK_ORACLE_SEED");
    return s ? std::strtoull(s, nullptr, 0) * 0x9E3779B97F4A7C15ull : 0;
}

/// The generator of case `index` of a test seeded with `seed`: every case draws from its own
/// stream, so a failing case replays on its own.
inline SplitMix64 caseRng(std::uint64_t seed, std::uint64_t index) {
    SplitMix64 mix(seed ^ (index * 0xD1B54A32D192ED03ull));
    return SplitMix64(mix.next());
}

// ---- hex floats for replay ----------------------------------------------------------------------
inline std::string hexf(float f) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%a", static_cast<double>(f));
    return buf;
}
inline std::string hexv(const Vec3& v) { return "{" + hexf(v.x) + ", " + hexf(v.y) + ", " + hexf(v.z) + "}"; }
/// `count` floats as "{h0, h1, ...}".
inline std::string hexInputs(const float* values, int count) {
    std::string s = "{";
    for (int i = 0; i < count; ++i) s += (i ? ", " : "") + hexf(values[i]);
    return s + "}";
}

// ---- the tally ----------------------------------------------------------------------------------
/// Counts one oracle run: cases, hits (the reference's positive answers, or the kernel's where the
/// test has no per-case reference answer), disagreements forgiven inside the band, failures.
/// Prints the one-line summary once, from print() or at the end of its scope:
///   [ oracle ] <name>  cases N  hit fraction F  forgiven K  failures M  (details)
/// and the first failures as GoogleTest failures with seed, case index and replay data.
struct OracleTally {
    std::string name;
    std::uint64_t seed = 0;
    long cases = 0;
    long hits = 0;
    long forgiven = 0;
    long failures = 0;
    long in_band = 0;          // cases whose reference lies within the band (agreeing or not)
    double max_forgiven = 0.0; // largest |decisive| / band among forgiven disagreements
    double worst_ratio = 0.0;  // largest output error / its tolerance among checked outputs
    std::string notes;         // test-specific counts, ", key value" each

    static constexpr long kPrintedFailures = 12;

    OracleTally(std::string test_name, std::uint64_t test_seed)
        : name(std::move(test_name)), seed(test_seed) {}
    OracleTally(const OracleTally&) = delete;
    OracleTally& operator=(const OracleTally&) = delete;
    ~OracleTally() { print(); }

    /// One yes/no decision: counts the case and its reference answer; a disagreement is forgiven
    /// when |decisive| <= bandOf(scale), else a failure. `describe` is called only for a failure.
    template <typename Describe>
    void decide(std::uint64_t index, bool kernel, bool reference, double decisive, double scale,
                Describe&& describe) {
        ++cases;
        if (reference) ++hits;
        if (kernel == reference) return;
        if (std::fabs(decisive) <= bandOf(scale)) {
            ++forgiven;
            return;
        }
        char buf[96];
        std::snprintf(buf, sizeof buf,
                      "kernel %s, reference %s, decisive %.9g vs band %.9g: ", kernel ? "hit" : "miss",
                      reference ? "hit" : "miss", decisive, bandOf(scale));
        fail(index, buf + describe());
    }

    /// A disagreement whose decisive distance is `decisive`: forgiven within `band`, else a
    /// failure. Returns true on a failure.
    bool disagree(std::uint64_t index, double decisive, double band, const float* inputs, int input_count,
                  const char* what) {
        if (std::fabs(decisive) <= band) {
            ++forgiven;
            max_forgiven = std::max(max_forgiven, std::fabs(decisive) / band);
            return false;
        }
        fail(index, what, decisive, band, inputs, input_count);
        return true;
    }

    /// An output check: `error` must not exceed `tolerance`; the worst ratio is kept for the
    /// summary. Returns true on a failure.
    bool check(std::uint64_t index, double error, double tolerance, const float* inputs, int input_count,
               const char* what) {
        const double ratio = tolerance > 0.0 ? error / tolerance : (error > 0.0 ? 1e30 : 0.0);
        if (ratio > worst_ratio || ratio != ratio) worst_ratio = ratio;
        if (ratio <= 1.0) return false;
        fail(index, what, error, tolerance, inputs, input_count);
        return true;
    }

    /// A property that must hold with no forgiveness. `describe` is called only for a failure.
    template <typename Describe>
    void require(std::uint64_t index, bool ok, const char* what, Describe&& describe) {
        if (!ok) fail(index, std::string(what) + ": " + describe());
    }

    /// Counts a case checked only for "no crash" and fixed outputs (non-finite input).
    void countOnly(bool reference_hit = false) {
        ++cases;
        if (reference_hit) ++hits;
    }

    /// Keeps the worst error / band of an agreeing case's continuous output (band 0: not kept).
    void noteError(double error, double band) {
        if (band > 0.0 && error / band > worst_ratio) worst_ratio = error / band;
    }

    /// Adds a test-specific count to the summary line.
    void note(const std::string& key, long value) { notes += ", " + key + " " + std::to_string(value); }

    /// Records a failure, a GoogleTest failure with its replay data for the first kPrintedFailures.
    void fail(std::uint64_t index, const std::string& text) {
        ++failures;
        if (failures <= kPrintedFailures)
            ADD_FAILURE() << name << " seed 0x" << std::hex << seed << std::dec << " case " << index << ": "
                          << text;
    }
    void fail(std::uint64_t index, const char* what, double value, double limit, const float* inputs,
              int input_count) {
        char buf[96];
        std::snprintf(buf, sizeof buf, ": value %.9g limit %.9g inputs ", value, limit);
        fail(index, what + std::string(buf) + hexInputs(inputs, input_count));
    }

    /// The summary line (once; later calls do nothing).
    void print() {
        if (m_printed) return;
        m_printed = true;
        std::string details = notes;
        char buf[96];
        if (in_band) {
            std::snprintf(buf, sizeof buf, ", in band %ld", in_band);
            details += buf;
        }
        if (max_forgiven > 0.0) {
            std::snprintf(buf, sizeof buf, ", largest forgiven %.2g of band", max_forgiven);
            details += buf;
        }
        if (worst_ratio != 0.0) {
            std::snprintf(buf, sizeof buf, ", worst output error %.3g of tolerance", worst_ratio);
            details += buf;
        }
        std::printf(
            "[ oracle ] %-34s cases %8ld  hit fraction %.3f  forgiven %ld  failures %ld%s%s%s  seed 0x%llx\n",
            name.c_str(), cases, cases ? double(hits) / double(cases) : 0.0, forgiven, failures,
            details.empty() ? "" : "  (", details.empty() ? "" : details.c_str() + 2,
            details.empty() ? "" : ")", static_cast<unsigned long long>(seed));
        std::fflush(stdout);
    }

private:
    bool m_printed = false;
};

} // namespace flak::test
