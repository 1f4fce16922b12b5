/* fix_wall_hertz2d.h: fix wall/hertz2d, rigid straight walls contacted by the hertz2d law.
 *
 *     fix ID group wall/hertz2d MU SIDE POSITION [SIDE POSITION ...]
 *         SIDE = xlo, xhi, ylo or yhi (each at most once): a wall x = POSITION or y = POSITION
 *         facing the inside of the box; MU is the walls' friction coefficient
 *     fix_modify ID position SIDE P                place the wall
 *     fix_modify ID velocity SIDE V                move it at V along its axis (stops a servo)
 *     fix_modify ID servo SIDE STRESS GAIN VMAX    drive it to the stress STRESS (Pa)
 *     fix_modify ID shear SIDE V                   slide it in its own plane at V (m/s, along
 *                                                  +x for ylo and yhi, +y for xlo and xhi)
 *     fix_modify ID wiggle SIDE normal|tangent A P  move it A sin(2 pi t/P) from where it is,
 *                                                  along its normal or in its plane
 *
 * Each contact as wall_contact.h: the mirror rule (Section 3.2) as hertz2d's DEM (dem/forces.py,
 * dem/walls.py), pair hertz2d's materials and dashpots, the history kept with the atom. Walls
 * move in post_integrate with their velocity (a wiggle sets it; a wall's velocity in its own
 * plane enters the contacts' tangential increments); the servo (PFC's rule, as dem/walls.py)
 * sets a servo wall's velocity after each force evaluation, v = GAIN (STRESS - sigma) L / (k dt)
 * clipped to VMAX, with sigma the stress of the contacts' springs, L the distance between the two
 * perpendicular walls of this fix (or, without them, the box's period along the wall: a periodic
 * shear cell) and k the sum of the wall contacts' tangent normal stiffnesses (2 dN/d(delta)
 * each, the mirror rule);
 * set-up evaluations (the start of each run) move no servo.
 *
 * Global vector (27 values): per side in the order xlo, xhi, ylo, yhi, position, velocity along
 * the axis, the discs' force on the wall (x, y; N/m), its stress (force along the normal over L,
 * Pa; 0 without the perpendicular walls), and the number of discs touching it; then, cumulative
 * from the fix's creation (J/m), the work the law dissipated in the wall contacts (slip, and the
 * tangential energy of contacts that opened), the work of their dashpots, and the work the walls
 * did on the discs (their forces at the walls' velocities, trapezoidal rule). Global scalar: the
 * energy the wall contacts store (the disc's half of its mirror pair's normal and tangential
 * potentials), part of `pe` with `fix_modify ID energy yes`. The ranks' sums are formed when
 * the values are asked for or a servo needs them, not every step.
 */
#ifndef HERTZ2D_FIX_WALL_HERTZ2D_H
#define HERTZ2D_FIX_WALL_HERTZ2D_H

#include "fix.h"

#include "wall_contact.h"

namespace LAMMPS_NS {

class FixWallHertz2d : public Fix {
 public:
  FixWallHertz2d(class LAMMPS *, int, char **);
  ~FixWallHertz2d() override;
  int setmask() override;
  void post_constructor() override;
  void init() override;
  void setup(int) override;
  void post_integrate() override;
  void post_force(int) override;
  void end_of_step() override;
  int modify_param(int, char **) override;
  double compute_scalar() override;
  double compute_vector(int) override;
  void write_restart(FILE *) override;
  void restart(char *) override;

  enum { XLO, XHI, YLO, YHI, SIDES };
  /* a wiggle: displacement AMPLITUDE sin(2 pi (t - start)/period) from origin */
  struct Wiggle {
    double amplitude = 0.0, period = 1.0, start = 0.0, origin = 0.0;
  };

 private:
  struct Wall {
    int active = 0;
    double position = 0.0, velocity = 0.0;    // along the wall's normal axis
    double target = -1.0, gain = 0.0, max_speed = 0.0;    // servo (target < 0: none)
    double moved_with = 0.0;                  // the velocity of the last move
    double slide = 0.0;                       // velocity in the wall's plane (shear)
    Wiggle normal_wiggle, tangent_wiggle;     // amplitude 0: none
  };
  Wall walls[SIDES];
  int order[SIDES], count;          // the walls in the order the fix command gave them
  Hertz2dWallMaterials materials;   // the law's constants per disc type, the friction
  // per side, this rank's discs at the last evaluation (partial) and summed over the ranks
  // (sums, when asked: by the servo, or for the global vector): spring force on the discs (x, y),
  // dashpot force on the discs (x, y), stiffness, touching discs
  double partial[SIDES][6], sums[SIDES][6];
  int summed;                       // sums holds the last evaluation's
  double wall_work, previous_power; // this rank's: the walls' work on the discs, its power
  class FixHertz2dStore *store;
  char *store_id;

  int side_of(const char *) const;
  double length(int side) const;
  void contacts();
  void sum();
  void servo();
  double powers();
  double now() const;
};

}    // namespace LAMMPS_NS

#endif
