// kernelwright: the workbench. Opens a workspace (the one given, else the last,
// else the default) and shows the bundled problems.
#include "models/problem_list_model.h"
#include "theme/app_theme.h"
#include "tree/tree_canvas.h"
#include "util/paths.h"
#include "widgets/search_view.h"
#include "windows/app_settings.h"
#include "windows/main_window.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QTimer>
#include <QtWidgets/QApplication>
#include <QtWidgets/QTabWidget>

#include <cstdio>
#include <string_view>

namespace {

// Saves a picture of the window once it is shown and laid out, then quits:
// a way to look at the GUI on a headless machine (xvfb-run, offscreen).
void screenshotAndQuit(kw::ui::MainWindow& window, const QString& file, int width) {
    QTimer::singleShot(1000, &window, [&window, file, width] {
        QCoreApplication::processEvents();
        QImage shot = window.grab().toImage();
        // Scaled pictures are for documents: 256 colours keep them small and the text crisp.
        if (width > 0 && width < shot.width())
            shot = shot.scaledToWidth(width, Qt::SmoothTransformation)
                       .convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither | Qt::AvoidDither);
        const bool saved = shot.save(file, "PNG");
        if (!saved) std::fprintf(stderr, "kernelwright: cannot write %s\n", qPrintable(file));
        QCoreApplication::exit(saved ? 0 : 1);
    });
}

// Selects a node as soon as the follower has delivered it (screenshots of the inspector).
// `number` is the node's number in its search, as the tree shows it (#N).
void selectWhenLoaded(kw::ui::SearchView* view, qint64 number, const QString& tab) {
    QObject::connect(view, &kw::ui::SearchView::nodesArrived, view, [view, number, tab] {
        const qint64 node = view->canvas()->layout().idOfNumber(number);
        if (!node || view->canvas()->selectedId() == node || !view->canvas()->selectNode(node)) return;
        for (int i = 0; i < view->inspector()->count(); ++i)
            if (view->inspector()->tabText(i).compare(tab, Qt::CaseInsensitive) == 0) view->inspector()->setCurrentIndex(i);
    });
}

bool asksForHelpOrVersion(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "-?" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version")
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication::setOrganizationName(QStringLiteral("Kernelwright"));
    QCoreApplication::setApplicationName(QStringLiteral("Kernelwright"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KW_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Kernelwright: a workbench for agentic kernel search."));
    parser.addHelpOption();
    parser.addVersionOption();
    // --db too, as kernelwright-cli has long called it.
    const QCommandLineOption workspace(QStringList{QStringLiteral("workspace"), QStringLiteral("db")},
                                       QStringLiteral("Open the workspace database PATH (created when missing)."),
                                       QStringLiteral("PATH"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save the window as a PNG to FILE once shown, then quit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption search(QStringLiteral("search"), QStringLiteral("Open the tree of search ID of the workspace."),
                                    QStringLiteral("ID"));
    parser.addOption(workspace);
    parser.addOption(screenshot);
    const QCommandLineOption node(
        QStringLiteral("node"),
        QStringLiteral(
            "With --search: select node N (its number in the search, as the tree shows it: #N) once the tree is loaded."),
        QStringLiteral("N"));
    const QCommandLineOption tab(
        QStringLiteral("inspector-tab"),
        QStringLiteral("With --node: show this inspector tab (Node, Code, Diff, Evaluation, Profile, LLM)."),
        QStringLiteral("NAME"));
    parser.addOption(search);
    const QCommandLineOption viewOption(QStringLiteral("view"),
                                        QStringLiteral("With --search: show the search as a tree (default) or a table."),
                                        QStringLiteral("tree|table"));
    parser.addOption(viewOption);
    const QCommandLineOption shotWidth(QStringLiteral("screenshot-width"),
                                       QStringLiteral("With --screenshot: scale the picture to this width (pixels)."),
                                       QStringLiteral("PIXELS"));
    parser.addOption(shotWidth);
    parser.addOption(node);
    parser.addOption(tab);
    const QCommandLineOption problemOption(QStringLiteral("problem"), QStringLiteral("Select problem NAME in the Problems tab."),
                                           QStringLiteral("NAME"));
    parser.addOption(problemOption);
    const QCommandLineOption suiteOption(QStringLiteral("suite"),
                                         QStringLiteral("Open the suite folder DIR (what problem import DIR made) in a tab."),
                                         QStringLiteral("DIR"));
    parser.addOption(suiteOption);
    const QCommandLineOption modelOption(QStringLiteral("model"),
                                         QStringLiteral("Open the model pipeline folder DIR (what model extract made) in a tab."),
                                         QStringLiteral("DIR"));
    parser.addOption(modelOption);
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QStringLiteral("system (the desktop's palette, the default), light or dark."),
                                   QStringLiteral("NAME"), QStringLiteral("system"));
    parser.addOption(theme);

    if (asksForHelpOrVersion(argc, argv)) {
        // Answered without a display, so that they work on a headless machine too.
        QCoreApplication console(argc, argv);
        parser.process(console); // prints and exits
        return 0;
    }
    // QApplication first: it takes its own options (-platform, -style, …) out of argv.
    QApplication app(argc, argv);
    parser.process(app);
    const auto chosenTheme = kw::ui::parseTheme(parser.value(theme));
    if (!chosenTheme) {
        std::fprintf(stderr, "kernelwright: %s\n", chosenTheme.error().message.c_str());
        return 2;
    }
    kw::ui::applyTheme(app, *chosenTheme);

    kw::ui::MainWindow window(kw::paths::bundledProblemsDir());
    if (parser.isSet(problemOption)) {
        bool found = false;
        for (int r = 0; r < window.problemModel()->rowCount(); ++r)
            if (const QString id = window.problemModel()->problemAt(r).id;
                id == parser.value(problemOption) || id.endsWith(QLatin1Char('/') + parser.value(problemOption))) {
                window.selectProblem(r);
                found = true;
            }
        if (!found) std::fprintf(stderr, "kernelwright: no bundled problem %s\n", qPrintable(parser.value(problemOption)));
    }
    const auto workspacePath = kw::ui::settings::initialWorkspace(parser.value(workspace));

    if (parser.isSet(screenshot)) {
        // Nobody is there to dismiss a message box: report on stderr and carry on.
        if (auto status = window.openWorkspace(workspacePath); !status)
            std::fprintf(stderr, "kernelwright: %s: %s\n", qPrintable(workspacePath), status.error().message.c_str());
        if (parser.isSet(suiteOption) && !window.openSuite(parser.value(suiteOption)))
            std::fprintf(stderr, "kernelwright: %s is not a suite\n", qPrintable(parser.value(suiteOption)));
        if (parser.isSet(modelOption) && !window.openModel(parser.value(modelOption)))
            std::fprintf(stderr, "kernelwright: %s is not a model pipeline folder\n", qPrintable(parser.value(modelOption)));
        if (parser.isSet(search)) {
            auto* view = window.openSearch(parser.value(search).toLongLong());
            if (!view) std::fprintf(stderr, "kernelwright: no search %s in the workspace\n", qPrintable(parser.value(search)));
            if (view && parser.isSet(node)) selectWhenLoaded(view, parser.value(node).toLongLong(), parser.value(tab));
            if (view && parser.value(viewOption) == QStringLiteral("table")) view->showTable();
        }
        window.show();
        screenshotAndQuit(window, parser.value(screenshot), parser.value(shotWidth).toInt());
    } else {
        window.show();
        // After show, so that a failure's message box sits on the window.
        const qint64 searchId = parser.isSet(search) ? parser.value(search).toLongLong() : 0;
        const QString suiteDir = parser.value(suiteOption), modelDir = parser.value(modelOption);
        QTimer::singleShot(0, &window, [&window, workspacePath, searchId, suiteDir, modelDir] {
            if (window.openWorkspaceOrWarn(workspacePath) && searchId) window.openSearch(searchId);
            if (!suiteDir.isEmpty()) window.openSuite(suiteDir);
            if (!modelDir.isEmpty()) window.openModel(modelDir);
        });
    }
    return app.exec();
}
