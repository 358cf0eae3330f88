#pragma once
// The Profile tab's text under its roofline chart: the achieved numbers, why
// a point may be missing, the parent's numbers, the dominant kernel's Nsight
// Compute metrics beside the parent's (as Nsight Compute's baseline view
// shows them), and the diagnosis with its evidence.
#include "inspect/node_details.h"

#include <QtCore/QString>

namespace kw::ui {

QString profileHtml(const inspect::NodeDetails& details);

} // namespace kw::ui
