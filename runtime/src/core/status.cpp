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
    case Status::Count: break;
    }
    return "Unknown";
}

} // namespace flak
