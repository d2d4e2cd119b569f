#include "a11y/wait/main_context.h"

namespace companyos::a11y {

ThreadContext::ThreadContext() : context_(g_main_context_new()) {
  g_main_context_push_thread_default(context_.get());
}

ThreadContext::~ThreadContext() { g_main_context_pop_thread_default(context_.get()); }

void sleep_until(GMainContext* context, std::chrono::steady_clock::time_point wake) {
  const auto remaining = std::chrono::ceil<std::chrono::milliseconds>(wake - std::chrono::steady_clock::now());
  if (remaining.count() <= 0) {
    while (g_main_context_iteration(context, FALSE)) {
    }
    return;
  }
  SourcePtr timer(g_timeout_source_new(static_cast<guint>(remaining.count())));
  g_source_set_callback(
      timer.get(), [](gpointer) -> gboolean { return G_SOURCE_REMOVE; }, nullptr, nullptr);
  g_source_attach(timer.get(), context);
  g_main_context_iteration(context, TRUE);
}

}  // namespace companyos::a11y
