import AgentWarrant.Spec.Edits.Safety
/-! The residual contract after a permitted partial execution (*When Can Agents Safely Checkpoint, Fork,
Restore, and Merge?*, Section V-C4, Appendix A-D3): `𝒞/raw(z)` checked under `Δ_z`.

    p/r   = p without the events of r, ordered by the pairs between remaining events
    Θ/z   : outcomes Compat(z), pomsets p_o/raw(z), log Δ·auth(z), everything else unchanged

Choice where the paper is silent: an outcome of `Θ/z` is an outcome of `Θ` still compatible with `z`
(the others cannot complete after `z`), and result identities are kept. -/
namespace AgentWarrant.Edits
open AgentWarrant

/-- `p/r`: remove the events of `r` and every order pair touching them. -/
def Pomset.residual (p : Pomset) (r : List Nat) : Pomset :=
  ⟨filt (fun x => !memN x r) p.events, filt (fun ab => !memN ab.1 r && !memN ab.2 r) p.order⟩

/-- `Θ/z`: the residual contract `𝒞/raw(z)` with the extended log `Δ_z = Δ·auth(z)`. -/
def Theta.after (θ : Theta) (z : Word) : Theta :=
  { θ with O := fun o => θ.Compat z o, pom := fun o => (θ.pom o).residual (raw z), log := θ.log ++ auth z }

end AgentWarrant.Edits
