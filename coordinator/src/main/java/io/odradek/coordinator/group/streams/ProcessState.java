package io.odradek.coordinator.group.streams;

import io.odradek.coordinator.group.streams.StickyTaskAssignor.Task;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One Kafka Streams process (an application instance, identified by its process id) while
 * {@link StickyTaskAssignor} runs: its members (one per stream thread), what each was given, and the process's
 * load. Load is tasks per member (Kafka's "capacity" is the member count), so a process with more threads takes
 * proportionally more. A process never holds the same task twice: not two standbys, not a standby beside its
 * active.
 */
final class ProcessState {
    private final String processId;
    /** Member id to tasks given so far (active and standby); sorted so ties break the same way every run. */
    private final TreeMap<String, Integer> taskCounts = new TreeMap<>();
    private final Map<String, List<Task>> activeByMember = new TreeMap<>();
    private final Map<String, List<Task>> standbyByMember = new TreeMap<>();
    private final Set<Task> tasks = new HashSet<>();
    private int taskCount;

    ProcessState(String processId) {
        this.processId = processId;
    }

    String processId() {
        return processId;
    }

    void addMember(String memberId) {
        taskCounts.putIfAbsent(memberId, 0);
    }

    /** Tasks per member; a process without members (cannot happen in a run) would count as full. */
    double load() {
        return taskCounts.isEmpty() ? Double.MAX_VALUE : (double) taskCount / taskCounts.size();
    }

    int taskCount(String memberId) {
        return taskCounts.get(memberId);
    }

    /** Whether the process already holds the task, as active or standby. */
    boolean hasTask(Task task) {
        return tasks.contains(task);
    }

    /** The member with the fewest tasks, the smallest member id among equals. */
    String leastLoadedMember() {
        String best = null;
        int bestCount = Integer.MAX_VALUE;
        for (Map.Entry<String, Integer> e : taskCounts.entrySet()) {
            if (e.getValue() < bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
            }
        }
        return best;
    }

    /** Gives the member an active task; returns the member's new task count. */
    int addActive(String memberId, Task task) {
        return add(memberId, task, activeByMember);
    }

    /** Gives the member a standby task; returns the member's new task count. */
    int addStandby(String memberId, Task task) {
        return add(memberId, task, standbyByMember);
    }

    private int add(String memberId, Task task, Map<String, List<Task>> byMember) {
        if (!tasks.add(task)) {
            throw new IllegalStateException("process " + processId + " already holds task " + task);
        }
        byMember.computeIfAbsent(memberId, m -> new ArrayList<>()).add(task);
        taskCount++;
        return taskCounts.merge(memberId, 1, Integer::sum);
    }

    List<Task> activeTasks(String memberId) {
        return activeByMember.getOrDefault(memberId, List.of());
    }

    List<Task> standbyTasks(String memberId) {
        return standbyByMember.getOrDefault(memberId, List.of());
    }
}
