// SPDX-License-Identifier: Apache-2.0
// ncursesw with its wide-character calls, and the values its headers give
// only as macros (attributes, colour pairs, mouse buttons), as functions
// Swift can call.
#ifndef ALARMD_CNCURSES_SHIM_H
#define ALARMD_CNCURSES_SHIM_H
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// glibc declares wcwidth only for X/Open builds: the declaration is its own.
extern int wcwidth(wchar_t character);
static inline int alarmd_wcwidth(wchar_t character) { return wcwidth(character); }

static inline int alarmd_curses_lines(void) { return LINES; }
static inline int alarmd_curses_columns(void) { return COLS; }
static inline WINDOW *alarmd_curses_stdscr(void) { return stdscr; }
static inline int alarmd_curses_bold(void) { return (int)A_BOLD; }
static inline int alarmd_curses_reverse(void) { return (int)A_REVERSE; }
static inline int alarmd_curses_dim(void) { return (int)A_DIM; }
static inline int alarmd_curses_underline(void) { return (int)A_UNDERLINE; }
static inline int alarmd_curses_color_pair(short pair) { return (int)COLOR_PAIR(pair); }
static inline mmask_t alarmd_curses_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t alarmd_curses_button1_press(void) {
    return BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED;
}
static inline mmask_t alarmd_curses_wheel_up(void) { return BUTTON4_PRESSED; }
#if defined(BUTTON5_PRESSED)
static inline mmask_t alarmd_curses_wheel_down(void) { return BUTTON5_PRESSED; }
#else
static inline mmask_t alarmd_curses_wheel_down(void) { return 0; }
#endif
#endif
