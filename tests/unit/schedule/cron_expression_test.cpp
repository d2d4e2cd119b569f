#include "schedule/cron_expression.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace companyos::schedule {
namespace {

std::uint64_t bits(std::initializer_list<int> values) {
  std::uint64_t mask = 0;
  for (int v : values) mask |= std::uint64_t{1} << v;
  return mask;
}

TEST(ParseCron, PlainListsSetExactlyTheirBits) {
  auto parsed = parse_cron("0,15,59 0,23 1,31 1,12 0,6");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(parsed->minutes, bits({0, 15, 59}));
  EXPECT_EQ(parsed->hours, bits({0, 23}));
  EXPECT_EQ(parsed->days_of_month, bits({1, 31}));
  EXPECT_EQ(parsed->months, bits({1, 12}));
  EXPECT_EQ(parsed->days_of_week, bits({0, 6}));

  auto every = parse_cron("* * * * *");
  ASSERT_TRUE(every.ok());
  EXPECT_EQ(every->minutes, (std::uint64_t{1} << 60) - 1);
  EXPECT_EQ(every->hours, (std::uint32_t{1} << 24) - 1);
  EXPECT_EQ(every->days_of_month, 0xfffffffeu);  // 1-31
  EXPECT_EQ(every->months, 0x1ffe);              // 1-12
  EXPECT_EQ(every->days_of_week, 0x7f);          // 0-6
}

// Each form selects the same values as the plain list beside it.
TEST(ParseCron, AcceptsEveryForm) {
  struct Case {
    std::string_view text;
    std::string_view same_values_as;
  };
  const Case cases[] = {
      {"  *\t*  * * *  ", "* * * * *"},
      {"*/15 * * * *", "0,15,30,45 * * * *"},
      {"10-50/10 * * * *", "10,20,30,40,50 * * * *"},
      {"5/15 * * * *", "5,20,35,50 * * * *"},  // Vixie: 5-59/15
      {"0 9-12 * * *", "0 9,10,11,12 * * *"},
      {"0 */6 * * *", "0 0,6,12,18 * * *"},
      {"0 1-23/11,5 * * *", "0 1,5,12,23 * * *"},
      {"0 0 */10 * *", "0 0 1,11,21,31 * *"},
      {"0 0 * jan,JUL,Dec *", "0 0 * 1,7,12 *"},
      {"0 0 * feb-apr *", "0 0 * 2,3,4 *"},
      {"0 0 * */3 *", "0 0 * 1,4,7,10 *"},
      {"0 0 * Jan-Dec/6 *", "0 0 * 1,7 *"},
      {"0 9 * * mon-fri", "0 9 * * 1,2,3,4,5"},
      {"0 9 * * 7", "0 9 * * 0"},
      {"0 9 * * 0,7", "0 9 * * 0"},
      {"0 9 * * 5-7", "0 9 * * 0,5,6"},
      {"0 9 * * Fri-Sun", "0 9 * * 0,5,6"},  // sun ending a range is 7
      {"0 9 * * sun-tue", "0 9 * * 0,1,2"},
      {"0 9 * * sun-sun", "0 9 * * 0"},
      {"0 9 * * SAT", "0 9 * * 6"},
      {"0 9 * * */2", "0 9 * * 0,2,4,6"},  // 0-7/2
      {"0 9 * * 1/2", "0 9 * * 0,1,3,5"},  // 1-7/2 ends on 7 = Sunday
      {"0 0 29 2 *", "0 0 29 2 *"},        // fires in leap years
      {"0 0 31 2 mon", "0 0 31 2 1"},      // OR rule: every Monday in February
      {"@hourly", "0 * * * *"},
      {"@daily", "0 0 * * *"},
      {"@midnight", "0 0 * * *"},
      {"@weekly", "0 0 * * 0"},
      {"@monthly", "0 0 1 * *"},
      {"@yearly", "0 0 1 1 *"},
      {"@annually", "0 0 1 1 *"},
      {"@Daily", "0 0 * * *"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    auto parsed = parse_cron(c.text);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    auto plain = parse_cron(c.same_values_as);
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    EXPECT_EQ(parsed->minutes, plain->minutes);
    EXPECT_EQ(parsed->hours, plain->hours);
    EXPECT_EQ(parsed->days_of_month, plain->days_of_month);
    EXPECT_EQ(parsed->months, plain->months);
    EXPECT_EQ(parsed->days_of_week, plain->days_of_week);
  }
}

// Vixie cron decides the day rule by the first character of each day field.
TEST(ParseCron, NotesWhichDayFieldsStartWithAStar) {
  struct Case {
    std::string_view text;
    bool day_of_month_starred;
    bool day_of_week_starred;
  };
  const Case cases[] = {
      {"0 0 * * *", true, true},    {"0 0 13 * fri", false, false}, {"0 0 13 * *", false, true},
      {"0 0 * * fri", true, false}, {"0 0 */2 * fri", true, false}, {"0 0 1 * */2", false, true},
      {"0 0 *,5 * 1", true, false}, {"@weekly", true, false},       {"@monthly", false, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    auto parsed = parse_cron(c.text);
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    EXPECT_EQ(parsed->day_of_month_starred, c.day_of_month_starred);
    EXPECT_EQ(parsed->day_of_week_starred, c.day_of_week_starred);
  }
}

TEST(ParseCron, KeepsTheTextForMessages) {
  auto parsed = parse_cron("  30 2 * * *\t");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->text, "30 2 * * *");
  EXPECT_EQ(parse_cron("@weekly")->text, "@weekly");
  EXPECT_EQ(parse_cron("0 9 * * 1-5\n")->text, "0 9 * * 1-5");
}

TEST(ParseCron, RefusesBadInputNamingTheField) {
  struct Case {
    std::string_view text;
    std::string_view message;
    int field;  // 0: the error is about the whole expression
  };
  const Case cases[] = {
      {"0 25 * * *", "schedule: field 2 (hour) \"25\": value out of range 0-23", 2},
      {"60 * * * *", "schedule: field 1 (minute) \"60\": value out of range 0-59", 1},
      {"0 0 0 * *", "schedule: field 3 (day of month) \"0\": value out of range 1-31", 3},
      {"0 0 32 * *", "schedule: field 3 (day of month) \"32\": value out of range 1-31", 3},
      {"0 0 * 13 *", "schedule: field 4 (month) \"13\": value out of range 1-12", 4},
      {"0 0 * 0 *", "schedule: field 4 (month) \"0\": value out of range 1-12", 4},
      {"0 0 * * 8", "schedule: field 5 (day of week) \"8\": value out of range 0-7", 5},
      {"0 20-25 * * *", "schedule: field 2 (hour) \"20-25\": value 25 out of range 0-23", 2},
      {"0 1,2,99 * * *", "schedule: field 2 (hour) \"99\": value out of range 0-23", 2},
      {"99999999999999999999 * * * *",
       "schedule: field 1 (minute) \"99999999999999999999\": value out of range 0-59", 1},
      {"*/0 * * * *", "schedule: field 1 (minute) \"*/0\": step 0 is not allowed", 1},
      {"0 */25 * * *", "schedule: field 2 (hour) \"*/25\": step 25 out of range 1-24", 2},
      {"0 0 * * */8", "schedule: field 5 (day of week) \"*/8\": step 8 out of range 1-7", 5},
      {"*/ * * * *", "schedule: field 1 (minute) \"*/\": step \"\" is not a number", 1},
      {"*/-5 * * * *", "schedule: field 1 (minute) \"*/-5\": step \"-5\" is not a number", 1},
      {"*/x * * * *", "schedule: field 1 (minute) \"*/x\": step \"x\" is not a number", 1},
      {"/5 * * * *", "schedule: field 1 (minute) \"/5\": missing range before '/'", 1},
      {"50-10 * * * *",
       "schedule: field 1 (minute) \"50-10\": reversed range 50-10 (the start must not be after "
       "the end)",
       1},
      {"0 0 * dec-jan *",
       "schedule: field 4 (month) \"dec-jan\": reversed range 12-1 (the start must not be after "
       "the end)",
       4},
      {"0 0 * * 5-0",
       "schedule: field 5 (day of week) \"5-0\": reversed range 5-0 (the start must not be after "
       "the end)",
       5},
      {"5- * * * *", "schedule: field 1 (minute) \"5-\": missing value", 1},
      {"-5 * * * *", "schedule: field 1 (minute) \"-5\": missing value", 1},
      {"1-2-3 * * * *", "schedule: field 1 (minute) \"1-2-3\": \"2-3\" is not a number", 1},
      {"1,,2 * * * *", "schedule: field 1 (minute) \"\": empty list item", 1},
      {"1, * * * *", "schedule: field 1 (minute) \"\": empty list item", 1},
      {"0 0 * * 1,", "schedule: field 5 (day of week) \"\": empty list item", 5},
      {"x * * * *", "schedule: field 1 (minute) \"x\": \"x\" is not a number", 1},
      {"0 mon * * *", "schedule: field 2 (hour) \"mon\": \"mon\" is not a number", 2},
      {"0 0 * january *",
       "schedule: field 4 (month) \"january\": \"january\" is not a number or a name (jan-dec)", 4},
      {"0 0 * * monday",
       "schedule: field 5 (day of week) \"monday\": \"monday\" is not a number or a name (sun-sat)",
       5},
      {"0 0 * jan *x",
       "schedule: field 5 (day of week) \"*x\": \"*x\" is not a number or a name (sun-sat)", 5},
      {"+5 * * * *", "schedule: field 1 (minute) \"+5\": \"+5\" is not a number", 1},
      {"1.5 * * * *", "schedule: field 1 (minute) \"1.5\": \"1.5\" is not a number", 1},
      {"", "schedule: empty expression", 0},
      {"   ", "schedule: empty expression", 0},
      {"* * * *", "schedule: expected 5 fields (minute hour day-of-month month day-of-week), got 4",
       0},
      {"* * * * * *",
       "schedule: expected 5 fields (minute hour day-of-month month day-of-week), got 6", 0},
      {"* * * * * /bin/true",
       "schedule: expected 5 fields (minute hour day-of-month month day-of-week), got 6", 0},
      {"@reboot", "schedule: unknown alias \"@reboot\"", 0},
      {"@daily *", "schedule: unknown alias \"@daily *\"", 0},
      {"@", "schedule: unknown alias \"@\"", 0},
      {"0 0 31 2 *",
       "schedule: \"0 0 31 2 *\" never fires: none of its days of month exists in its months", 0},
      {"0 0 30 feb *",
       "schedule: \"0 0 30 feb *\" never fires: none of its days of month exists in its months", 0},
      {"0 0 31 4,6,9,11 *",
       "schedule: \"0 0 31 4,6,9,11 *\" never fires: none of its days of month exists in its "
       "months",
       0},
      {"0 0 31 2 */2",
       "schedule: \"0 0 31 2 */2\" never fires: none of its days of month exists in its months", 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    auto parsed = parse_cron(c.text);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidArgs);
    EXPECT_EQ(parsed.error().message, c.message);
    EXPECT_FALSE(parsed.error().suggestion.empty());
    if (c.field != 0) {
      EXPECT_EQ(parsed.error().details.value("field", 0), c.field);
    }
  }
}

}  // namespace
}  // namespace companyos::schedule
