// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* main.c - orchestration: cli -> audit -> probes -> samplers -> pipeline -> report. */
#include <stdio.h>

#include "js_util.h"

int main(void)
{
	js_err("not built yet");
	return JS_EXIT_ERROR;
}
