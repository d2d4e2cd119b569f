// clipboard get / set: the X11 CLIPBOARD's text, through the daemon's one clipboard owner.
#include "companyos/methods.h"
#include "companyos/reply_fields.h"
#include "core/delivery.h"
#include "daemon/context.h"
#include "daemon/methods/methods.h"
#include "daemon/server/worker_pool.h"
#include "desktop/clipboard.h"

namespace companyos::daemon::methods {
namespace {

// A clipboard request blocks on other apps answering it: never on the main loop.
constexpr const char* kClipboardLane = "clipboard";

}  // namespace

const MethodSpec kClipboardGet{
    .decl = declared::kClipboardGet,
    .handler = [](const nlohmann::json&, DaemonContext& ctx, Reply reply) {
      ctx.workers.run(
          [&clipboard = ctx.clipboard]() -> Result<nlohmann::json> {
            auto text = clipboard.text();
            if (!text) return std::move(text).take_error();
            return nlohmann::json{{"text", *text ? nlohmann::json(**text) : nlohmann::json(nullptr)}};
          },
          std::move(reply), kClipboardLane);
    },
};

const MethodSpec kClipboardSet{
    .decl = declared::kClipboardSet,
    .handler = [](const nlohmann::json& params, DaemonContext& ctx, Reply reply) {
      std::string text = params["text"].get<std::string>();
      if (auto st = desktop::check_clipboard_text(text); !st) return reply(std::move(st).take_error());
      ctx.workers.run(
          [&clipboard = ctx.clipboard, text = std::move(text)]() -> Result<nlohmann::json> {
            auto verified = clipboard.set_text(text);
            if (!verified) return std::move(verified).take_error();
            return nlohmann::json{
                {reply_fields::outcome::kDelivery, to_string(*verified ? Delivery::kDeliveredVerified : Delivery::kDeliveredUnverified)},
                {"bytes", text.size()}};
          },
          std::move(reply), kClipboardLane);
    },
};

}  // namespace companyos::daemon::methods
