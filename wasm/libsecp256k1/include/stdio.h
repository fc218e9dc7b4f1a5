/* libsecp256k1 includes <stdio.h> for its default callbacks, which binding.c replaces. */
#pragma once
