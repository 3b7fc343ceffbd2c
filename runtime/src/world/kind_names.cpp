// flak — the names of the World's body and hit kinds (body.h, hit.h).
#include <flak/world/body.h>
#include <flak/world/hit.h>

namespace flak {

const char* bodyKindName(BodyKind kind) {
    switch (kind) {
    case BodyKind::None: return "none";
    case BodyKind::Level: return "level";
    case BodyKind::Walls: return "walls";
    case BodyKind::Enemy: return "enemy";
    case BodyKind::Player: return "player";
    case BodyKind::Bullet: return "bullet";
    case BodyKind::Beam: return "beam";
    default: return "unknown";
    }
}

const char* hitKindName(HitKind kind) {
    switch (kind) {
    case HitKind::Bullet: return "bullet";
    case HitKind::Beam: return "beam";
    case HitKind::ShipShip: return "ship_ship";
    case HitKind::ShipWall: return "ship_wall";
    default: return "unknown";
    }
}

} // namespace flak
