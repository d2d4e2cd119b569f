#include "mcp/tools.h"

#include <set>

#include <gtest/gtest.h>

namespace companyos::mcp {
namespace {

TEST(Tools, EachIsDeclaredOnceWithSchemasThatHold) {
  std::set<std::string> names;
  for (const ToolDeclaration* tool : all_tools()) {
    SCOPED_TRACE(std::string(tool->name));
    EXPECT_TRUE(names.insert(std::string(tool->name)).second) << "declared twice";
    EXPECT_EQ(find_tool(tool->name), tool);
    EXPECT_FALSE(tool->title.empty());
    EXPECT_FALSE(tool->description.empty());
    ASSERT_NE(tool->handler, nullptr);
    const nlohmann::json output = nlohmann::json::parse(tool->output_schema, nullptr, false);
    ASSERT_TRUE(output.is_object()) << "the output schema is not a JSON object";
    EXPECT_EQ(output["type"], "object");
    const nlohmann::json input = input_schema(*tool);
    EXPECT_EQ(input["type"], "object");
    EXPECT_EQ(input["additionalProperties"], false);
    for (const methods::ParamSpec& param : tool_params(*tool)) {
      EXPECT_TRUE(input["properties"].contains(std::string(param.name)));
      EXPECT_FALSE(param.help.empty()) << param.name;
    }
  }
  EXPECT_EQ(find_tool("rm_rf"), nullptr);
}

TEST(Tools, ReadOnlyExactlyForTheToolsThatOnlyLook) {
  const std::set<std::string> read_only = {"list_apps", "list_windows", "get_app_state", "wait"};
  for (const ToolDeclaration* tool : all_tools()) {
    const nlohmann::json annotations = describe_tool(*tool)["annotations"];
    EXPECT_EQ(annotations["readOnlyHint"], read_only.count(std::string(tool->name)) == 1) << tool->name;
    // Opening a link or starting an app changes no data of the person's; everything else
    // that acts may.
    if (!read_only.count(std::string(tool->name)) && tool->name != "open_url" && tool->name != "open_app") {
      EXPECT_EQ(annotations["destructiveHint"], true) << tool->name;
    }
  }
}

// A tool that wraps a method is described and checked by the method's declaration.
const methods::MethodDeclaration kCounted{
    .name = "counted",
    .params = {{.name = "count", .type = methods::ParamType::kInteger, .required = true, .help = "how many",
                .range = methods::IntRange{1, 9}},
               {.name = "label", .help = "what to call it", .length = methods::LengthLimit{40}}},
    .flags = methods::kFlagEffectful};
const ToolDeclaration kCountedTool{
    .name = "counted_tool",
    .title = "Counted",
    .description = "a tool only this test declares",
    .wraps = &kCounted,
    .params = {{.name = "count", .help = "in the agent's words"},
               {.name = "label"},
               {.name = "own", .type = methods::ParamType::kBoolean, .help = "the tool's alone"}},
    .output_schema = R"({"type":"object"})",
    .annotations = {.read_only = true}};

TEST(Tools, AWrappedMethodsDeclarationGivesItsParamsAndWhetherItOnlyReads) {
  const auto params = tool_params(kCountedTool);
  ASSERT_EQ(params.size(), 3u);
  EXPECT_EQ(params[0].type, methods::ParamType::kInteger);
  EXPECT_TRUE(params[0].required);
  ASSERT_TRUE(params[0].range);
  EXPECT_EQ(params[0].range->max, 9);
  EXPECT_EQ(params[0].help, "in the agent's words");
  EXPECT_EQ(params[1].help, "what to call it");  // none of its own: the method's
  ASSERT_TRUE(params[1].length);
  EXPECT_EQ(params[1].length->max, 40);
  EXPECT_EQ(params[2].type, methods::ParamType::kBoolean);
  EXPECT_FALSE(tool_annotations(kCountedTool).read_only);  // the method is effectful
  const nlohmann::json schema = input_schema(kCountedTool);
  EXPECT_EQ(schema["properties"]["count"]["maximum"], 9);
  EXPECT_EQ(schema["properties"]["label"]["maxLength"], 40);
  EXPECT_EQ(schema["required"], nlohmann::json({"count"}));
}

TEST(Tools, EveryWrappingToolFollowsItsMethod) {
  int wrapping = 0;
  for (const ToolDeclaration* tool : all_tools()) {
    if (tool->wraps == nullptr) continue;
    ++wrapping;
    SCOPED_TRACE(std::string(tool->name));
    EXPECT_EQ(tool_annotations(*tool).read_only, (tool->wraps->flags & methods::kFlagEffectful) == 0);
    for (const methods::ParamSpec& param : tool_params(*tool)) {
      const methods::ParamSpec* declared = tool->wraps->param(param.name);
      if (declared == nullptr) continue;
      EXPECT_EQ(param.type, declared->type) << param.name;
      EXPECT_TRUE(param.required || !declared->required) << param.name;
      EXPECT_EQ(param.range.has_value(), declared->range.has_value()) << param.name;
      EXPECT_EQ(param.length.has_value(), declared->length.has_value()) << param.name;
    }
  }
  EXPECT_GE(wrapping, 4);  // list_apps, list_windows, open_app, open_url
}

TEST(Tools, InputSchemaCarriesRangesRequiredAndItemTypes) {
  const nlohmann::json wait = input_schema(*find_tool("wait"));
  EXPECT_EQ(wait["properties"]["seconds"]["minimum"], 1);
  EXPECT_EQ(wait["properties"]["seconds"]["maximum"], 30);
  EXPECT_FALSE(wait.contains("required"));
  const nlohmann::json keys = input_schema(*find_tool("keypress"));
  EXPECT_EQ(keys["properties"]["keys"]["items"]["type"], "string");
  EXPECT_EQ(keys["required"], nlohmann::json({"app", "keys"}));
}

struct ArgumentCase {
  const char* name;
  const char* tool;
  const char* arguments;
  bool ok;
};

class ToolArguments : public ::testing::TestWithParam<ArgumentCase> {};

TEST_P(ToolArguments, AreCheckedAgainstTheDeclaration) {
  const ArgumentCase& c = GetParam();
  const ToolDeclaration* tool = find_tool(c.tool);
  ASSERT_NE(tool, nullptr);
  auto checked = methods::check_params(tool->name, tool_params(*tool), nlohmann::json::parse(c.arguments));
  EXPECT_EQ(checked.ok(), c.ok) << (checked.ok() ? "" : checked.error().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ToolArguments,
    ::testing::Values(ArgumentCase{"click_ok", "click", R"({"app":"a","element":3})", true},
                      ArgumentCase{"click_with_state", "click", R"({"app":"a","element":3,"state":"s1"})", true},
                      // Element or point: the handler asks for one of them (ServerTest).
                      ArgumentCase{"click_no_element", "click", R"({"app":"a"})", true},
                      ArgumentCase{"click_point", "click", R"({"app":"a","x":10,"y":20})", true},
                      ArgumentCase{"click_point_negative", "click", R"({"app":"a","x":-1,"y":20})", false},
                      ArgumentCase{"click_point_text", "click", R"({"app":"a","x":"10","y":20})", false},
                      ArgumentCase{"type_ok", "type", R"({"app":"a","text":"hi"})", true},
                      ArgumentCase{"type_paste", "type", R"({"app":"a","text":"hi","paste":true})", true},
                      ArgumentCase{"type_no_text", "type", R"({"app":"a"})", false},
                      ArgumentCase{"type_text_number", "type", R"({"app":"a","text":5})", false},
                      ArgumentCase{"click_element_text", "click", R"({"app":"a","element":"3"})", false},
                      ArgumentCase{"click_negative", "click", R"({"app":"a","element":-2})", false},
                      ArgumentCase{"click_unknown_arg", "click", R"({"app":"a","element":1,"force":true})", false},
                      ArgumentCase{"set_value_number", "set_value", R"({"app":"a","element":1,"value":4.5})", true},
                      ArgumentCase{"set_value_missing", "set_value", R"({"app":"a","element":1})", false},
                      ArgumentCase{"keys_ok", "keypress", R"({"app":"a","keys":["ctrl","s"]})", true},
                      ArgumentCase{"keys_numbers", "keypress", R"({"app":"a","keys":[1,2]})", false},
                      ArgumentCase{"keys_string", "keypress", R"({"app":"a","keys":"ctrl+s"})", false},
                      ArgumentCase{"wait_too_long", "wait", R"({"seconds":31})", false},
                      ArgumentCase{"wait_zero", "wait", R"({"seconds":0})", false},
                      ArgumentCase{"state_picture_flag", "get_app_state", R"({"screenshot":"yes"})", false},
                      ArgumentCase{"list_apps_no_args", "list_apps", R"({})", true},
                      ArgumentCase{"list_apps_extra", "list_apps", R"({"all":true})", false},
                      ArgumentCase{"automation_list", "automation", R"({"action":"list"})", true},
                      ArgumentCase{"automation_unknown_action", "automation", R"({"action":"promote","id":1})", false},
                      ArgumentCase{"automation_definition_text", "automation", R"({"action":"create","automation":"x"})",
                                   false},
                      // Without app: the desktop's default app for the scheme (the daemon's open_link).
                      ArgumentCase{"open_url_without_app", "open_url", R"({"url":"https://example.org"})", true},
                      ArgumentCase{"open_url_without_url", "open_url", R"({"app":"firefox-esr"})", false},
                      ArgumentCase{"open_url_app_number", "open_url", R"({"url":"https://example.org","app":1})",
                                   false}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace companyos::mcp
