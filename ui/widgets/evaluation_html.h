#pragma once
// The Evaluation tab's text for a node's result: its status and message, the
// checks that failed, and per timing shape the medians, the speedup and how
// far that speedup can be trusted (its 95 % interval and rounds).
#include "eval/evaluation_result.h"

#include <QtCore/QString>

namespace kw::ui {

// `errorColor`: the colour name failed checks are written in (the theme's).
QString evaluationHtml(const eval::EvaluationResult& result, const QString& errorColor);

} // namespace kw::ui
