import AgentWarrant.Spec.Monitor.Labels
/-! Label join is a join-semilattice with bottom (Agenra Section 4.2): commutative, associative,
idempotent, and `bot` is its unit. The label at any node is therefore independent of the order its
parents are listed in. -/
namespace AgentWarrant.Monitor

theorem mxComm : ∀ a b : Nat, mx a b = mx b a
  | 0, 0 => rfl
  | 0, b + 1 => rfl
  | a + 1, 0 => rfl
  | a + 1, b + 1 => congrArg Nat.succ (mxComm a b)

theorem mxAssoc : ∀ a b c : Nat, mx (mx a b) c = mx a (mx b c)
  | 0, b, c => rfl
  | a + 1, 0, c => rfl
  | a + 1, b + 1, 0 => rfl
  | a + 1, b + 1, c + 1 => congrArg Nat.succ (mxAssoc a b c)

theorem mxIdem : ∀ a : Nat, mx a a = a
  | 0 => rfl
  | a + 1 => congrArg Nat.succ (mxIdem a)

theorem orComm (a b : Bool) : (a || b) = (b || a) := by cases a <;> cases b <;> rfl
theorem orAssoc (a b c : Bool) : ((a || b) || c) = (a || (b || c)) := by cases a <;> cases b <;> cases c <;> rfl
theorem orIdem (a : Bool) : (a || a) = a := by cases a <;> rfl
theorem andComm (a b : Bool) : (a && b) = (b && a) := by cases a <;> cases b <;> rfl
theorem andAssoc (a b c : Bool) : ((a && b) && c) = (a && (b && c)) := by cases a <;> cases b <;> cases c <;> rfl
theorem andIdem (a : Bool) : (a && a) = a := by cases a <;> rfl

theorem orLComm : ∀ x y : List Bool, orL x y = orL y x
  | [], [] => rfl
  | [], _ :: _ => rfl
  | _ :: _, [] => rfl
  | a :: x, b :: y => by simp [orL, orComm a b, orLComm x y]

theorem orLAssoc : ∀ x y z : List Bool, orL (orL x y) z = orL x (orL y z)
  | [], y, z => rfl
  | a :: x, [], z => rfl
  | a :: x, b :: y, [] => rfl
  | a :: x, b :: y, c :: z => by simp [orL, orAssoc a b c, orLAssoc x y z]

theorem orLIdem : ∀ x : List Bool, orL x x = x
  | [] => rfl
  | a :: x => by simp [orL, orIdem a, orLIdem x]

theorem joinComm (a b : Label) : join a b = join b a := by
  cases a with | mk s c t => cases b with | mk s' c' t' =>
    simp [join, mxComm s s', orLComm c c', andComm t t']

theorem joinAssoc (a b c : Label) : join (join a b) c = join a (join b c) := by
  cases a with | mk s1 c1 t1 => cases b with | mk s2 c2 t2 => cases c with | mk s3 c3 t3 =>
    simp [join, mxAssoc, orLAssoc, andAssoc]

theorem joinIdem (a : Label) : join a a = a := by
  cases a with | mk s c t => simp [join, mxIdem, orLIdem, andIdem]

theorem joinBot (a : Label) : join bot a = a := by
  cases a with | mk s c t => cases t <;> rfl

end AgentWarrant.Monitor
