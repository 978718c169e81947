package io.odradek.coordinator.group.streams;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Kafka 4.4's server-side task assignor for streams groups, "sticky" (KIP-1071; Kafka's
 * org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor). Its steps are Kafka's, except the
 * two marked as ours:
 *
 * <ol>
 * <li>Active tasks, in (partition, subtopology) order: a task stays with the member that held it as active,
 * while that member is under its quota; the quota is ceil(tasks left / members left), recomputed whenever a
 * member reaches it, which is what keeps counts within one of each other.</li>
 * <li>Ours, not Kafka's: a task whose previous owner is at its quota stays on the same process when another member
 * (thread) of it is under the quota, since threads of one Kafka Streams instance share its state directory.</li>
 * <li>Tasks still free go to a member that held them as standby (its state is warm), the least loaded such
 * member first, again within the quota.</li>
 * <li>The rest, in (subtopology, partition) order, so a fresh group gets range-like runs: each to the member
 * with the fewest tasks, among equals the one on the least loaded process (tasks per member), which spreads
 * tasks across processes. Ours: Kafka picks the least loaded process first and then its least loaded member; we
 * pick the member first, so members' active counts always end within one of each other (run side by side with
 * Kafka 4.4's class on random groups, about one group in twenty ended with members two or more apart there,
 * none here; standby counts were the same).</li>
 * <li>Standby tasks, only when {@code num.standby.replicas} (from the group's assignment configs, default 0)
 * is above 0 and only for stateful subtopologies: for each replica, in reverse (partition, subtopology) order,
 * the previous active owner if the task's active moved elsewhere, else the least loaded previous standby owner,
 * both within the total quota (active plus standby tasks per member); what remains goes, in reverse
 * (subtopology, partition) order, to the least loaded process that holds no copy of the task yet, on its least
 * loaded member. A process never holds a task twice (no standby beside its active, no two standbys), so with
 * too few processes fewer replicas are placed; Kafka logs a warning there, we place what fits quietly.</li>
 * </ol>
 *
 * <p>No warm-up tasks: Kafka 4.4's sticky assignor assigns none (its MemberAssignment has no warm-ups), and
 * previous warm-ups do not count as standbys for stickiness (4.4 reads only active and standby tasks). Kafka 4.4
 * also takes the task offsets a member reports (state on its local disk, e.g. after a restart under a new
 * member id) as weaker standby candidates, and ranks standbys by offset sum; our MemberSpec carries no offsets,
 * so such a member starts without stickiness and standby candidates rank in member-id order. Client tags and racks are not used
 * (neither does Kafka 4.4's sticky assignor).
 *
 * <p>Deterministic: members are visited in member-id order, processes in process-id order, and every tie
 * breaks on those ids, so the same input always gives the same output (Kafka's hash-map orders do not).
 */
public final class StickyTaskAssignor implements TaskAssignor {
    public static final String NAME = "sticky";
    /** The assignment config with the number of standby replicas per stateful task. */
    public static final String NUM_STANDBY_REPLICAS = "num.standby.replicas";

    /** A task: a subtopology and one of its partitions. */
    record Task(String subtopologyId, int partition) {
        @Override
        public String toString() {
            return subtopologyId + "_" + partition;
        }
    }

    private static final Comparator<Task> BY_PARTITION =
            Comparator.comparingInt(Task::partition).thenComparing(Task::subtopologyId);
    private static final Comparator<Task> BY_SUBTOPOLOGY =
            Comparator.comparing(Task::subtopologyId).thenComparingInt(Task::partition);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String toString() {
        return NAME;
    }

    @Override
    public GroupAssignment assign(GroupSpec group, TopologyDescriber topology) {
        if (group.members().isEmpty()) {
            return new GroupAssignment(Map.of());
        }
        Run run = new Run(group, topology);
        run.assignActive();
        if (run.standbyReplicas > 0) {
            run.assignStandby();
        }
        return run.result();
    }

    static int standbyReplicas(Map<String, String> assignmentConfigs) {
        String value = assignmentConfigs == null ? null : assignmentConfigs.get(NUM_STANDBY_REPLICAS);
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(NUM_STANDBY_REPLICAS + " is not a number: " + value, e);
        }
    }

    /**
     * Kafka's per-member quota: ceil(tasks left / members left). When a member's count reaches the quota, that
     * member and its tasks leave the computation, so the quota for the others can only stay or drop to the floor
     * of the average; this is how stickiness cannot push anyone more than one above the rest.
     */
    private static final class Quota {
        private int tasks;
        private int members;
        private int perMember;

        Quota(int tasks, int members) {
            this.tasks = tasks;
            this.members = members;
            recompute();
        }

        int perMember() {
            return perMember;
        }

        void onMemberCount(int count) {
            if (count == perMember) {
                members--;
                tasks -= count;
                recompute();
            }
        }

        private void recompute() {
            perMember = members <= 0 ? 0 : (tasks + members - 1) / members;
        }
    }

    /** The state of one assign call. */
    private static final class Run {
        final int standbyReplicas;
        final List<String> memberIds;
        final Map<String, ProcessState> processes = new TreeMap<>();
        final Map<String, ProcessState> processOf = new HashMap<>();
        final Map<Task, String> prevActiveOwner = new HashMap<>();
        /** Previous standby owners per task, in member-id order. */
        final Map<Task, List<String>> prevStandbyOwners = new HashMap<>();
        final List<Task> allTasks = new ArrayList<>();
        final List<Task> statefulTasks = new ArrayList<>();
        final Quota activeQuota;
        final Quota totalQuota;

        Run(GroupSpec group, TopologyDescriber topology) {
            standbyReplicas = standbyReplicas(group.assignmentConfigs());
            for (String subtopology : topology.subtopologies()) {
                boolean stateful = topology.isStateful(subtopology);
                for (int p = 0; p < topology.maxNumInputPartitions(subtopology); p++) {
                    Task task = new Task(subtopology, p);
                    allTasks.add(task);
                    if (stateful) {
                        statefulTasks.add(task);
                    }
                }
            }
            memberIds = new ArrayList<>(new TreeSet<>(group.members().keySet()));
            for (String memberId : memberIds) {
                MemberSpec spec = group.members().get(memberId);
                // A member without a process id is its own process (clients always send one; be safe).
                String processId = spec.processId() == null ? "member:" + memberId : spec.processId();
                ProcessState process = processes.computeIfAbsent(processId, ProcessState::new);
                process.addMember(memberId);
                processOf.put(memberId, process);
                forEachTask(spec.activeTasks(), t -> prevActiveOwner.putIfAbsent(t, memberId));
                forEachTask(spec.standbyTasks(), t -> prevStandbyOwners.computeIfAbsent(t, x -> new ArrayList<>()).add(memberId));
            }
            int members = memberIds.size();
            activeQuota = new Quota(allTasks.size(), members);
            totalQuota = new Quota(allTasks.size() + statefulTasks.size() * standbyReplicas, members);
        }

        /** Visits a member's tasks in sorted order, so "first holder wins" on duplicates is stable. */
        private static void forEachTask(Map<String, Set<Integer>> tasks, Consumer<Task> action) {
            if (tasks == null) {
                return;
            }
            for (Map.Entry<String, Set<Integer>> e : new TreeMap<>(tasks).entrySet()) {
                if (e.getValue() != null) {
                    new TreeSet<>(e.getValue()).forEach(partition -> action.accept(new Task(e.getKey(), partition)));
                }
            }
        }

        private int count(String memberId) {
            return processOf.get(memberId).taskCount(memberId);
        }

        private void giveActive(String memberId, Task task) {
            int count = processOf.get(memberId).addActive(memberId, task);
            activeQuota.onMemberCount(count);
            totalQuota.onMemberCount(count);
        }

        private void giveStandby(String memberId, Task task) {
            totalQuota.onMemberCount(processOf.get(memberId).addStandby(memberId, task));
        }

        void assignActive() {
            List<Task> free = new ArrayList<>(allTasks);
            free.sort(BY_PARTITION);
            // 1. previous active owners keep their tasks, within the quota
            for (Iterator<Task> it = free.iterator(); it.hasNext();) {
                Task task = it.next();
                String owner = prevActiveOwner.get(task);
                if (owner != null && count(owner) < activeQuota.perMember()) {
                    giveActive(owner, task);
                    it.remove();
                }
            }
            // 1b. (ours, not Kafka's) a task whose owner is at its quota stays on the owner's process, on its least
            // loaded member with room: threads of one instance share its state directory, so no state moves
            for (Iterator<Task> it = free.iterator(); it.hasNext();) {
                Task task = it.next();
                String owner = prevActiveOwner.get(task);
                if (owner != null) {
                    String sibling = processOf.get(owner).leastLoadedMember();
                    if (count(sibling) < activeQuota.perMember()) {
                        giveActive(sibling, task);
                        it.remove();
                    }
                }
            }
            // 2. then previous standby owners (warm state), the least loaded of them
            for (Iterator<Task> it = free.iterator(); it.hasNext();) {
                Task task = it.next();
                String owner = leastLoaded(prevStandbyOwners.get(task), null);
                if (owner != null && count(owner) < activeQuota.perMember()) {
                    giveActive(owner, task);
                    it.remove();
                }
            }
            // 3. the rest, range-like, to the member with the fewest tasks on the least loaded process
            free.sort(BY_SUBTOPOLOGY);
            for (Task task : free) {
                giveActive(memberWithFewestTasks(), task);
            }
        }

        void assignStandby() {
            record Pending(Task task, int replicas) {
            }
            List<Task> tasks = new ArrayList<>(statefulTasks);
            tasks.sort(BY_PARTITION.reversed());
            List<Pending> pending = new ArrayList<>();
            for (Task task : tasks) {
                for (int i = 0; i < standbyReplicas; i++) {
                    // the previous active owner, when the active went elsewhere: its state is there
                    String prevActive = prevActiveOwner.get(task);
                    if (prevActive != null && !processOf.get(prevActive).hasTask(task)
                            && count(prevActive) < totalQuota.perMember()) {
                        giveStandby(prevActive, task);
                        continue;
                    }
                    String prevStandby = leastLoaded(prevStandbyOwners.get(task), task);
                    if (prevStandby != null && count(prevStandby) < totalQuota.perMember()) {
                        giveStandby(prevStandby, task);
                        continue;
                    }
                    pending.add(new Pending(task, standbyReplicas - i));
                    break;
                }
            }
            pending.sort(Comparator.comparing(Pending::task, BY_SUBTOPOLOGY).reversed());
            for (Pending p : pending) {
                for (int i = 0; i < p.replicas(); i++) {
                    ProcessState process = leastLoadedProcessWithout(p.task());
                    if (process == null) {
                        break; // every process holds a copy already: not enough instances for more replicas
                    }
                    giveStandby(process.leastLoadedMember(), p.task());
                }
            }
        }

        /**
         * Among the candidates (in rank order), the member on the least loaded process, then with the fewest
         * tasks; skips processes already holding {@code task} when it is given. Null when none qualifies.
         */
        private String leastLoaded(List<String> candidates, Task task) {
            if (candidates == null) {
                return null;
            }
            String best = null;
            double bestLoad = 0;
            int bestCount = 0;
            for (String memberId : candidates) {
                ProcessState process = processOf.get(memberId);
                if (task != null && process.hasTask(task)) {
                    continue;
                }
                double load = process.load();
                int count = process.taskCount(memberId);
                if (best == null || load < bestLoad || (load == bestLoad && count < bestCount)) {
                    best = memberId;
                    bestLoad = load;
                    bestCount = count;
                }
            }
            return best;
        }

        /** The member with the fewest tasks; among equals the least loaded process, then process id, member id. */
        private String memberWithFewestTasks() {
            String best = null;
            int bestCount = 0;
            double bestLoad = 0;
            for (ProcessState process : processes.values()) { // process-id order, then member-id order within
                double load = process.load();
                String memberId = process.leastLoadedMember();
                int count = process.taskCount(memberId);
                if (best == null || count < bestCount || (count == bestCount && load < bestLoad)) {
                    best = memberId;
                    bestCount = count;
                    bestLoad = load;
                }
            }
            return best;
        }

        private ProcessState leastLoadedProcessWithout(Task task) {
            ProcessState best = null;
            for (ProcessState process : processes.values()) {
                if (!process.hasTask(task) && (best == null || process.load() < best.load())) {
                    best = process;
                }
            }
            return best;
        }

        GroupAssignment result() {
            Map<String, MemberAssignment> members = new LinkedHashMap<>();
            for (String memberId : memberIds) {
                ProcessState process = processOf.get(memberId);
                members.put(memberId, new MemberAssignment(compact(process.activeTasks(memberId)),
                        compact(process.standbyTasks(memberId)), Map.of()));
            }
            return new GroupAssignment(Collections.unmodifiableMap(members));
        }

        private static Map<String, Set<Integer>> compact(List<Task> tasks) {
            Map<String, Set<Integer>> out = new TreeMap<>();
            for (Task task : tasks) {
                out.computeIfAbsent(task.subtopologyId(), s -> new TreeSet<>()).add(task.partition());
            }
            out.replaceAll((s, partitions) -> Collections.unmodifiableSet(partitions));
            return Collections.unmodifiableMap(out);
        }
    }
}
