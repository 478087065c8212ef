#pragma once
// Moved to common/big_buffer.hpp; this forward stays until float_motion/cpu.cpp includes it there.
#include "common/big_buffer.hpp"
