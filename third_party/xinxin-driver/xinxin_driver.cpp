// xinxin_driver: one decision of xinxin (Nathan Sturtevant's Hearts program, third_party/xinxin) per request line.
//
// Copyright 2026 the hearts-env authors. This program links xinxin, which is GPL-3.0, so it is GPL-3.0 too
// (third_party/xinxin-driver/COPYING). It is built by `make xinxin` into third_party/xinxin-driver/build/ and is
// never part of the Apache-2.0 hearts-env wheel; hearts-env talks to it only through pipes
// (hearts_env.evaluation.reference.xinxin, a seat program of the hearts-bench seat protocol).
//
// Usage: xinxin_driver UCT_NUM_RUNS UCT_C_VAL IIMC_NUM_WORLDS PLAYOUT_EPSILON
//   The player is OpenSpiel's XinxinBot's: SafeSimpleHeartsPlayer(iiMonteCarlo(UCT(runs, C), worlds)), model
//   level 2, HeartsPlayout; threads off, so that a request and its seed always give the same card.
//
// One request per line on stdin, whitespace-separated integers, cards as hearts-env ids (suit * 13 + rank;
// suits clubs, diamonds, hearts, spades; rank 0 is the two):
//   SEED RULES PASS_DIR SEAT  HAND_0[13] HAND_1[13] HAND_2[13] HAND_3[13]
//   N_PASSES (PLAYER CARD)*N_PASSES  N_PLAYS (PLAYER CARD)*N_PLAYS
// RULES is xinxin's rule bit set; PASS_DIR is xinxin's (0 hold, 1 left, 2 across, -1 right); the hands are the
// hands as dealt (before passing); the passes and plays are applied in order, and SEAT must then be to act.
// The reply, one line: "card C K L_1 ... L_K" (C the chosen card, L xinxin's own legal cards), or "error TEXT".
// The protocol runs on the stdout this program started with; fd 1 then points at stderr, so that whatever
// xinxin prints (it does, on some errors) cannot corrupt a reply.
//
// Each request is decided in a child process forked from a driver that has never searched: nothing xinxin keeps
// between searches (static tables, fields it never initialises) carries over to the next request, and an assert
// or a crash inside xinxin ends only the child: the reply is then "error xinxin ended by signal N". The child
// dies with the driver (PR_SET_PDEATHSIG), so killing the driver at a deadline stops its search too.
// xinxin seeds its search's generators from the clock (time()): the driver defines time() itself, returning the
// request's seed, so the seed alone draws them (nothing in xinxin reads time() for anything but seeds and a
// 10,000-second limit it never reaches).

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sstream>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "Hearts.h"
#include "UCT.h"
#include "iiMonteCarlo.h"

using namespace hearts;

// The clock xinxin's generators are seeded from (see the top of this file): the seed of the request being decided.
static time_t request_clock = 0;

extern "C" time_t time(time_t *out) {
  if (out != nullptr) *out = request_clock;
  return request_clock;
}

namespace {

const int kOurSuitToXinxin[4] = {CLUBS, DIAMONDS, HEARTS, SPADES};

card ToXinxin(int id) { return Deck::getcard(kOurSuitToXinxin[id / 13], TWO - id % 13); }

int FromXinxin(card c) {
  int suit = Deck::getsuit(c);
  int ours = 0;
  while (kOurSuitToXinxin[ours] != suit) ours++;
  return ours * 13 + (TWO - Deck::getrank(c));
}

struct Settings {
  int runs;
  double c;
  int worlds;
  double epsilon;
};

// The objects of one seat's player; owned here because xinxin's destructors do not free them.
struct Seat {
  UCT *uct;
  HeartsPlayout *playout;
  iiMonteCarlo *mc;
};

bool ReadCard(std::istringstream &in, int &id) {
  return static_cast<bool>(in >> id) && id >= 0 && id < 52;
}

bool ReadMoves(std::istringstream &in, std::vector<CardMove> &moves) {
  int count = 0;
  if (!(in >> count) || count < 0 || count > 64) return false;
  for (int i = 0; i < count; i++) {
    int player = 0, id = 0;
    if (!(in >> player) || player < 0 || player > 3 || !ReadCard(in, id)) return false;
    CardMove move;
    move.init(ToXinxin(id), kSloughCard, player);  // the context is only copied, never read
    moves.push_back(move);
  }
  return true;
}

std::string Decide(const char *line, const Settings &settings) {
  std::istringstream in(line);
  long long seed = 0;
  int rules = 0, pass_dir = 0, seat = 0;
  if (!(in >> seed >> rules >> pass_dir >> seat) || seat < 0 || seat > 3 || pass_dir < -1 || pass_dir > 2)
    return "error bad header: want SEED RULES PASS_DIR SEAT";
  std::vector<std::vector<card>> hands(4);
  for (int p = 0; p < 4; p++)
    for (int i = 0; i < 13; i++) {
      int id = 0;
      if (!ReadCard(in, id)) return "error bad hands: want 52 card ids 0..51";
      hands[p].push_back(ToXinxin(id));
    }
  std::vector<CardMove> passes, plays;
  if (!ReadMoves(in, passes)) return "error bad passes: want N then N pairs PLAYER CARD";
  if (!ReadMoves(in, plays)) return "error bad plays: want N then N pairs PLAYER CARD";

  // Every random choice of this decision comes from the seed: the game state's seed (xinxin's worlds), the C
  // library's random() (used by its evaluation) and the clock its search generators are seeded from.
  srandom(static_cast<unsigned>(seed));
  request_clock = static_cast<time_t>(seed);
  HeartsGameState *game = new HeartsGameState(static_cast<int>(seed & 0x7fffffff));
  game->setRules(rules);
  game->deletePlayers();
  std::vector<Seat> seats;
  for (int p = 0; p < 4; p++) {
    Seat s;
    s.uct = new UCT(settings.runs, settings.c);
    s.playout = new HeartsPlayout();
    s.uct->setPlayoutModule(s.playout);
    s.uct->setEpsilonPlayout(settings.epsilon);
    s.mc = new iiMonteCarlo(s.uct, settings.worlds);
    s.mc->setUseThreads(false);
    SafeSimpleHeartsPlayer *player = new SafeSimpleHeartsPlayer(s.mc);
    player->setModelLevel(2);
    game->addPlayer(player);
    seats.push_back(s);
  }
  // OpenSpiel's XinxinBot::NewDeal order (setting the cards unsets the pass direction).
  game->Reset();
  game->SetInitialCards(hands);
  game->setPassDir(pass_dir);
  game->setFirstPlayer(0);

  std::string reply;
  for (CardMove &m : passes) {
    if (game->getNextPlayerNum() != m.player || !game->cards[m.player].has(m.c)) {
      reply = "error a pass does not fit the state";
      break;
    }
    game->ApplyMove(&m);
  }
  if (reply.empty())
    for (CardMove &m : plays) {
      if (game->getNextPlayerNum() != m.player || !game->cards[m.player].has(m.c)) {
        reply = "error a play does not fit the state";
        break;
      }
      game->ApplyMove(&m);
    }
  if (reply.empty() && (game->Done() || game->getNextPlayerNum() != seat))
    reply = "error the seat is not to act after these moves";
  if (reply.empty()) {
    std::ostringstream out;
    std::vector<int> legal;
    Move *all = game->getAllMoves();
    for (Move *m = all; m != nullptr; m = m->next) legal.push_back(FromXinxin(static_cast<CardMove *>(m)->c));
    game->freeMove(all);
    Move *chosen = game->getNextPlayer()->Play();
    out << "card " << FromXinxin(static_cast<CardMove *>(chosen)->c) << " " << legal.size();
    for (int id : legal) out << " " << id;
    game->freeMove(chosen);
    reply = out.str();
  }
  game->deletePlayers();  // deletes the four players and, through them, each iiMonteCarlo
  delete game;
  for (Seat &s : seats) {
    delete s.uct;
    delete s.playout;
  }
  return reply;
}

// One reply line, written with write(2) from a fixed buffer: the driver allocates nothing between requests.
void Reply(int fd, const char *text) {
  static char buffer[1 << 12];
  int size = std::snprintf(buffer, sizeof(buffer), "%s\n", text);
  if (size < 0 || size >= static_cast<int>(sizeof(buffer))) _exit(3);
  for (int done = 0; done < size;) {
    ssize_t wrote = write(fd, buffer + done, static_cast<size_t>(size - done));
    if (wrote <= 0) _exit(3);
    done += static_cast<int>(wrote);
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: xinxin_driver UCT_NUM_RUNS UCT_C_VAL IIMC_NUM_WORLDS PLAYOUT_EPSILON\n");
    return 2;
  }
  Settings settings = {std::atoi(argv[1]), std::atof(argv[2]), std::atoi(argv[3]), std::atof(argv[4])};
  if (settings.runs < 1 || settings.worlds < 1 || settings.c <= 0 || settings.epsilon < 0 || settings.epsilon > 1) {
    std::fprintf(stderr, "xinxin_driver: want UCT_NUM_RUNS >= 1, UCT_C_VAL > 0, IIMC_NUM_WORLDS >= 1, "
                         "0 <= PLAYOUT_EPSILON <= 1\n");
    return 2;
  }
  int replies = dup(1);
  dup2(2, 1);
  // The driver itself allocates nothing per request (a fixed buffer, read with read(2)), so every child starts
  // from the same memory: xinxin reads some memory it never initialised, and its card must not depend on what
  // the driver did before.
  static char line[1 << 16];
  static char pending[1 << 16];
  size_t pending_length = 0;
  while (true) {
    size_t length = 0;
    bool ended = false, too_long = false;
    while (true) {
      char *newline = static_cast<char *>(memchr(pending, '\n', pending_length));
      if (newline != nullptr) {
        length = static_cast<size_t>(newline - pending);
        memcpy(line, pending, length);
        pending_length -= length + 1;
        memmove(pending, newline + 1, pending_length);
        break;
      }
      if (pending_length == sizeof(pending)) {
        too_long = true;
        break;
      }
      ssize_t got = read(0, pending + pending_length, sizeof(pending) - pending_length);
      if (got <= 0) { ended = true; break; }
      pending_length += static_cast<size_t>(got);
    }
    if (ended) break;
    if (too_long) {  // no way to find where the next request starts
      Reply(replies, "error a request line is longer than 65535 bytes");
      return 2;
    }
    line[length] = '\0';
    pid_t child = fork();
    if (child == 0) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() == 1) _exit(1);  // the driver died before the line above
      Reply(replies, Decide(line, settings).c_str());
      _exit(0);
    }
    int status = 0;
    static char error[64];
    if (child < 0 || waitpid(child, &status, 0) != child) {
      Reply(replies, "error could not run the search in a child process");
    } else if (WIFSIGNALED(status)) {
      std::snprintf(error, sizeof(error), "error xinxin ended by signal %d", WTERMSIG(status));
      Reply(replies, error);
    } else if (WEXITSTATUS(status) != 0) {
      std::snprintf(error, sizeof(error), "error xinxin exited with status %d", WEXITSTATUS(status));
      Reply(replies, error);
    }
  }
  return 0;
}
