//===- NpyHeaderTest.cpp - The .npy header dictionary parser --------------===//
//
// parseNpyHeader accepts what numpy writes (any key order, either quote,
// Python whitespace, trailing commas) and refuses, with a message, every
// header numpy and a lax reader could read differently: duplicated keys
// (numpy keeps the last), unknown or missing keys, values of other types,
// text after the dictionary, over-long headers.
//
//===----------------------------------------------------------------------===//

#include "quantc/Runtime/Npy.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <string>

using quantc::NpyHeader;
using quantc::parseNpyHeader;

namespace {

/// The parsed header, or the test fails with the error.
NpyHeader accept(const std::string &text) {
  llvm::Expected<NpyHeader> h = parseNpyHeader(text);
  if (!h) {
    ADD_FAILURE() << "refused '" << text
                  << "': " << llvm::toString(h.takeError());
    return {};
  }
  return *h;
}

/// The error message for a refused header ("" if it was accepted).
std::string refuse(const std::string &text) {
  llvm::Expected<NpyHeader> h = parseNpyHeader(text);
  if (h) {
    ADD_FAILURE() << "accepted '" << text << "'";
    return "";
  }
  return llvm::toString(h.takeError());
}

TEST(NpyHeader, WhatNumpyWrites) {
  NpyHeader h = accept("{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(2, 3), }                    \n");
  EXPECT_EQ(h.descr, "<f4");
  EXPECT_FALSE(h.fortranOrder);
  EXPECT_EQ(h.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(
      accept("{'descr': '<f4', 'fortran_order': False, 'shape': (7,), }").shape,
      std::vector<int64_t>{7});
  EXPECT_TRUE(accept("{'descr': '<f4', 'fortran_order': False, 'shape': (), }")
                  .shape.empty());
  EXPECT_TRUE(accept("{'descr': '>f8', 'fortran_order': True, 'shape': (0, 1)}")
                  .fortranOrder);
}

TEST(NpyHeader, OtherSpellings) {
  NpyHeader h = accept("{\"shape\":(4,\n5 ,),\t\"fortran_order\" : False,"
                       "\"descr\":\"|b1\"}");
  EXPECT_EQ(h.descr, "|b1");
  EXPECT_EQ(h.shape, (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(
      accept("  {'descr': '<f4', 'fortran_order': False, 'shape': (1, 2)}")
          .shape.size(),
      2u);
}

TEST(NpyHeader, DuplicatedKey) {
  // numpy keeps the last value; a reader that found the first would read
  // another array.
  EXPECT_NE(refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (1, "
                   "4), 'shape': (2, 2), }")
                .find("header key 'shape' appears twice"),
            std::string::npos);
  EXPECT_NE(refuse("{'descr': '<f4', 'descr': '<f8', 'fortran_order': "
                   "False, 'shape': (1,)}")
                .find("'descr' appears twice"),
            std::string::npos);
}

TEST(NpyHeader, Keys) {
  EXPECT_NE(refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), "
                   "'extra': 1}")
                .find("unknown header key 'extra'"),
            std::string::npos);
  EXPECT_NE(
      refuse("{'descr': '<f4', 'shape': (1,)}").find("no 'fortran_order' key"),
      std::string::npos);
  // A key inside a value is no key of the header.
  refuse("{'descr': '<f4', 'fortran_order': False, 'x': {'shape': (2,)}, "
         "'shape': (1,)}");
  refuse("{'desc': '<f4', 'fortran_order': False, 'shape': (1,)}");
  refuse("{descr: '<f4', 'fortran_order': False, 'shape': (1,)}");
}

TEST(NpyHeader, Values) {
  EXPECT_NE(refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (4)}")
                .find("shape (4) is not a tuple"),
            std::string::npos);
  refuse("{'descr': '<f4', 'fortran_order': 0, 'shape': (4,)}");
  refuse("{'descr': '<f4', 'fortran_order': false, 'shape': (4,)}");
  refuse("{'descr': '<f4', 'fortran_order': Falsey, 'shape': (4,)}");
  refuse("{'descr': 4, 'fortran_order': False, 'shape': (4,)}");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': [4]}");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (-4,)}");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (04,)}");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (4,,)}");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)}");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (1_0,)}");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': "
         "(99999999999999999999,)}");
  refuse("{'descr': '<\\x66\\x34', 'fortran_order': False, 'shape': (4,)}");
  refuse("{'descr': '<f4, 'fortran_order': False, 'shape': (4,)}");
}

TEST(NpyHeader, Structure) {
  EXPECT_NE(refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (4,)} "
                   "junk")
                .find("text after the dictionary"),
            std::string::npos);
  refuse("");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (4,)");
  refuse("{'descr': '<f4' 'fortran_order': False, 'shape': (4,)}");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (4,),,}");
  refuse("{, 'descr': '<f4', 'fortran_order': False, 'shape': (4,)}");
  refuse("{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}" +
         std::string(1, '\0'));
  std::string padded =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4,)}";
  padded += std::string(quantc::kMaxNpyHeaderBytes, ' ');
  EXPECT_NE(refuse(padded).find("longer than 10000"), std::string::npos);
}

} // namespace
