#pragma once
// The LLM tab's page for one call: header, error, the knowledge-base
// documents, then reasoning, reply and prompt as wrapped text (never one
// line clipped at the pane's edge). The reply's code blocks are coloured;
// the prompt's sections (## Problem, ## Kernel, ...) are folded, each a link
// "section:N" that the view toggles.
#include "inspect/node_details.h" // store::LlmCallRecord, as the workspace reader gives it

#include <QtCore/QString>
#include <QtGui/QPalette>

#include <set>
#include <string>
#include <vector>

namespace kw::ui {

struct PromptSection {
    QString title; // "" for the text before the first heading (the system prompt)
    QString text;
};

// The prompt split at its "## " headings.
std::vector<PromptSection> promptSections(const QString& prompt);

// `expanded`: indexes of the prompt sections shown unfolded.
QString llmCallHtml(const store::LlmCallRecord& call, const std::vector<store::RetrievedDoc>& retrievedDocs,
                    const std::set<int>& expanded, const QPalette& palette);

} // namespace kw::ui
