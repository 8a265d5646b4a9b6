/* replay.h — the dashboard on a recording (--replay FILE): its own key table (replay_keys.c, keys
 * that the main table (keys.c) does not use), the "go to" time prompt, and the top bar's REPLAY
 * segment. Internal to src/ui; struct ui's `replay` is NULL on a live cluster. */
#ifndef LAGTOP_UI_REPLAY_H
#define LAGTOP_UI_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/keys.h"
#include "ui/source.h"

struct ui;

struct ui_replay {
	bool prompting; /* typing a time after g */
	char buf[64];
};

/* A replay state for src when it is a replay source, else NULL. */
struct ui_replay *replay_ui_new(ui_source *src);
void replay_ui_free(struct ui_replay *r);

/* Takes the key when it is the prompt's, a replay key, or a key that writes to a cluster (refused
 * with a message); false otherwise (the main table's turn). Popups and the filter line come first. */
bool replay_on_key(struct ui *u, int ch);

/* "REPLAY 2026-12-01 03:10:05Z 12/340 PLAY 10x" for the top bar; false on a live cluster. */
bool replay_bar_text(const struct ui *u, char *buf, size_t len);
/* The prompt line while typing a time, NULL otherwise. */
const char *replay_prompt(const struct ui *u, char *buf, size_t len);

/* The replay key table, entry i; NULL past the end (help screen, man page test). */
const struct ui_key *replay_keys_at(size_t i);
/* Help lines for the replay keys (as keys_help_lines); free with keys_help_free. */
char **replay_help_lines(int name_width);

#endif
