#include <flak/status.h>

namespace flak {

const char* statusName(Status status) {
    switch (status) {
    case Status::Ok: return "Ok";
    case Status::NullMemory: return "NullMemory";
    case Status::Misaligned: return "Misaligned";
    case Status::TooSmall: return "TooSmall";
    case Status::OutOfMemory: return "OutOfMemory";
    case Status::PoolFull: return "PoolFull";
    case Status::NullHandle: return "NullHandle";
    case Status::StaleHandle: return "StaleHandle";
    case Status::BadMarker: return "BadMarker";
    case Status::InvalidArgument: return "InvalidArgument";
    case Status::BlobBadMagic: return "BlobBadMagic";
    case Status::BlobUnsupportedVersion: return "BlobUnsupportedVersion";
    case Status::BlobLayoutMismatch: return "BlobLayoutMismatch";
    case Status::BlobWrongEndian: return "BlobWrongEndian";
    case Status::BlobTruncated: return "BlobTruncated";
    case Status::BlobBadChecksum: return "BlobBadChecksum";
    case Status::BlobMisaligned: return "BlobMisaligned";
    case Status::BlobCorrupt: return "BlobCorrupt";
    case Status::BufferFull: return "BufferFull";
    case Status::NoLoader: return "NoLoader";
    case Status::NoDevice: return "NoDevice";
    case Status::GpuUnsupported: return "GpuUnsupported";
    case Status::DeviceLost: return "DeviceLost";
    case Status::NotReady: return "NotReady";
    case Status::Count: break;
    }
    return "Unknown";
}

} // namespace flak
