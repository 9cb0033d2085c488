// Loopline's driver for htsim (Broadcom/csg-htsim): TCP NewReno on a FatTree, flows from an
// htsim connection matrix. It is a main() only: it links against the unmodified libhtsim.a and
// datacenter objects and uses htsim's own TcpSrc/TcpSink, Queue, Pipe, FatTreeTopology and
// TcpRtxTimerScanner; it reads htsim's connection-matrix format itself (see load_flows). Stock datacenter/main_tcp.cpp cannot be used for the
// comparison: it ignores -tm (own random permutation of infinite flows), compiles in a 100 Gb/s
// NIC and an 8-packet random-drop queue, and sends ACKs back with no latency.
// Built outside the repository by `compare.py build-htsim` (see sim-engine/compare/README.md).
//
// Output: one line per flow to -fct FILE: "id src dst bytes packets start_ps finish_ps"
// (finish_ps = -1 if unfinished), and "LOOPLINE key value" summary lines on stdout (flows,
// finished, events, times, VmHWM, switch_drops, timeouts).
#include "config.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>
#include "network.h"
#include "pipe.h"
#include "eventlist.h"
#include "tcp.h"
#include "fat_tree_topology.h"

// One line of the connection matrix. htsim's ConnectionMatrix::load reads `start` with stof (a
// 32-bit float: start times past 16.7 us move by up to tens of picoseconds), so the driver
// reads the file itself, with exact integers.
struct Flow {
    uint32_t src, dst;
    uint64_t start_ps, size;
};

static bool load_flows(const char* path, uint32_t& nodes, std::vector<Flow>& flows) {
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line)) {
        unsigned a, b, id;
        unsigned long long start, size;
        if (sscanf(line.c_str(), "Nodes %u", &a) == 1) nodes = a;
        else if (sscanf(line.c_str(), "%u->%u id %u start %llu size %llu", &a, &b, &id, &start, &size) == 5)
            flows.push_back(Flow{a, b, (uint64_t)start, (uint64_t)size});
    }
    return !flows.empty();
}

EventList eventlist;

static std::vector<simtime_picosec> g_finish;
static uint64_t g_finished = 0;
static uint64_t g_timeouts = 0;

// htsim's TcpSrc, recording the time the first ACK covering the last byte arrives (htsim prints
// it only in ms with 6 significant digits).
class FctTcpSrc : public TcpSrc {
public:
    FctTcpSrc(EventList& ev, size_t idx) : TcpSrc(NULL, NULL, ev), _idx(idx), _done(false) {}
    void receivePacket(Packet& pkt) override {
        TcpSrc::receivePacket(pkt);
        if (!_done && _last_acked >= _flow_size) {
            _done = true;
            g_finish[_idx] = EventList::now();
            g_finished++;
        }
    }
    // Counts the retransmission timeouts htsim's scanner fires (the condition TcpSrc tests).
    void rtx_timer_hook(simtime_picosec now, simtime_picosec period) override {
        if (now > _RFC2988_RTO_timeout && _RFC2988_RTO_timeout != timeInf && _highest_sent != 0) g_timeouts++;
        TcpSrc::rtx_timer_hook(now, period);
    }
private:
    size_t _idx;
    bool _done;
};

static uint64_t drops_of(const std::vector<std::vector<std::vector<BaseQueue*> > >& queues) {
    uint64_t n = 0;
    for (size_t i = 0; i < queues.size(); i++)
        for (size_t j = 0; j < queues[i].size(); j++)
            for (size_t b = 0; b < queues[i][j].size(); b++) {
                Queue* q = dynamic_cast<Queue*>(queues[i][j][b]);
                if (q) n += q->num_drops();
            }
    return n;
}

static double wall_now() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long status_kb(const char* key) {
    std::ifstream f("/proc/self/status");
    std::string line;
    size_t n = strlen(key);
    while (std::getline(f, line)) {
        if (line.compare(0, n, key) == 0) return atol(line.c_str() + n + 1);
    }
    return -1;
}

static void usage(const char* prog) {
    std::cerr << "Usage: " << prog << " -nodes N -tm FILE -fct FILE [-linkspeed Mbps(10000)]"
              << " [-q queue_packets(100)] [-mtu bytes(1500)] [-payload bytes(1460)]"
              << " [-hop_latency_ns ns(1000)] [-cwnd packets(10)] [-ssthresh packets(0=htsim default)]"
              << " [-seed S(1)] [-rto_scan_ms ms(10)] [-host_queue fair|prio] [-end_s s(100)]"
              << " [-paths FILE: one path index per flow, else per-flow random ECMP]\n";
    exit(2);
}

int main(int argc, char** argv) {
    double t0 = wall_now();
    uint32_t no_of_nodes = 0;
    const char* tm_file = NULL;
    const char* fct_file = NULL;
    const char* paths_file = NULL;
    double linkspeed_mbps = 10000;
    uint32_t queue_pkts = 100, mtu = 1500, payload = 1460, cwnd_pkts = 10, ssthresh_pkts = 0;
    uint64_t hop_latency_ns = 1000;
    double rto_scan_ms = 10, end_s = 100;
    int seed = 1;
    queue_type host_q = FAIR_PRIO;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (i + 1 >= argc) usage(argv[0]);
        const char* v = argv[++i];
        if (a == "-nodes") no_of_nodes = atoi(v);
        else if (a == "-tm") tm_file = v;
        else if (a == "-fct") fct_file = v;
        else if (a == "-paths") paths_file = v;
        else if (a == "-linkspeed") linkspeed_mbps = atof(v);
        else if (a == "-q") queue_pkts = atoi(v);
        else if (a == "-mtu") mtu = atoi(v);
        else if (a == "-payload") payload = atoi(v);
        else if (a == "-hop_latency_ns") hop_latency_ns = strtoull(v, NULL, 10);
        else if (a == "-cwnd") cwnd_pkts = atoi(v);
        else if (a == "-ssthresh") ssthresh_pkts = atoi(v);
        else if (a == "-seed") seed = atoi(v);
        else if (a == "-rto_scan_ms") rto_scan_ms = atof(v);
        else if (a == "-end_s") end_s = atof(v);
        else if (a == "-host_queue") {
            if (!strcmp(v, "fair")) host_q = FAIR_PRIO;
            else if (!strcmp(v, "prio")) host_q = PRIORITY;
            else usage(argv[0]);
        } else usage(argv[0]);
    }
    if (!no_of_nodes || !tm_file || !fct_file || payload == 0 || payload > mtu) usage(argv[0]);
    srand(seed);
    srandom(seed);
    Packet::set_packet_size(mtu);
    eventlist.setEndtime(timeFromSec(end_s));

    uint32_t cm_nodes = 0;
    std::vector<Flow> flows;
    if (!load_flows(tm_file, cm_nodes, flows)) {
        std::cerr << "cannot load connection matrix " << tm_file << "\n";
        return 2;
    }
    if (cm_nodes != no_of_nodes) {
        std::cerr << "connection matrix has " << cm_nodes << " nodes, -nodes is " << no_of_nodes << "\n";
        return 2;
    }

    FatTreeTopology::set_tiers(3);
    // Switch ports: drop-tail Queue (the ECN type; TcpSrc ignores the marks). Hosts: htsim's
    // unbounded host queue (ACKs before data).
    FatTreeTopology* top = new FatTreeTopology(
        no_of_nodes, speedFromMbps(linkspeed_mbps), memFromPkt(queue_pkts), NULL, &eventlist, NULL,
        ECN, timeFromNs((double)hop_latency_ns), 0, host_q);
    if (top->no_of_nodes() != no_of_nodes) {
        std::cerr << "FatTree has " << top->no_of_nodes() << " hosts, -nodes is " << no_of_nodes << "\n";
        return 2;
    }

    TcpRtxTimerScanner scanner(timeFromMs(rto_scan_ms), eventlist);
    std::vector<Flow>* all = &flows;
    // Optional fixed path per flow (index into get_bidir_paths, e.g. the engine's ECMP choice).
    std::vector<long> fixed_paths;
    if (paths_file) {
        std::ifstream pf(paths_file);
        long idx;
        while (pf >> idx) fixed_paths.push_back(idx);
        if (fixed_paths.size() != all->size()) {
            std::cerr << paths_file << " has " << fixed_paths.size() << " paths for " << all->size() << " flows\n";
            return 2;
        }
    }
    g_finish.assign(all->size(), (simtime_picosec)0);
    std::vector<uint64_t> packets(all->size());
    for (size_t c = 0; c < all->size(); c++) {
        const Flow* crt = &all->at(c);
        // Same number of full-size packets as the engine sends for crt->size payload bytes.
        uint64_t n = ((uint64_t)crt->size + payload - 1) / payload;
        if (n == 0) n = 1;
        packets[c] = n;
        FctTcpSrc* src = new FctTcpSrc(eventlist, c);
        TcpSink* snk = new TcpSink();
        // htsim sends floor(F/mss)+1 packets and is done when an ACK reaches F: F = n*mss - 1
        // gives exactly n packets, done on the n-th packet's ACK.
        src->_flow_size = n * (uint64_t)mtu - 1;
        src->set_cwnd((uint64_t)cwnd_pkts * mtu);
        if (ssthresh_pkts) src->set_ssthresh((uint64_t)ssthresh_pkts * mtu);
        src->setName("tcp_" + ntoa(crt->src) + "_" + ntoa(crt->dst) + "_" + ntoa(c));
        snk->setName("tcp_sink_" + ntoa(crt->src) + "_" + ntoa(crt->dst) + "_" + ntoa(c));
        scanner.registerTcp(*src);
        std::vector<const Route*>* paths = top->get_bidir_paths(crt->src, crt->dst, true);
        size_t choice = rand() % paths->size();  // per-flow ECMP
        if (paths_file) {
            if (fixed_paths[c] < 0 || (size_t)fixed_paths[c] >= paths->size()) {
                std::cerr << "flow " << c << ": path " << fixed_paths[c] << " of " << paths->size() << "\n";
                return 2;
            }
            choice = fixed_paths[c];
        }
        const Route* p = paths->at(choice);
        Route* out = new Route(*p, *snk);
        Route* back = new Route(*p->reverse(), *src);
        out->set_reverse(NULL);
        back->set_reverse(NULL);
        for (size_t r = 0; r < paths->size(); r++) {
            delete paths->at(r)->reverse();
            delete paths->at(r);
        }
        delete paths;
        src->connect(*out, *back, *snk, crt->start_ps);
    }
    double t1 = wall_now();
    uint64_t events = 0;
    while (g_finished < all->size() && eventlist.doNextEvent()) events++;
    double t2 = wall_now();

    FILE* f = fopen(fct_file, "w");
    if (!f) {
        std::cerr << "cannot write " << fct_file << "\n";
        return 1;
    }
    simtime_picosec last = 0;
    for (size_t c = 0; c < all->size(); c++) {
        const Flow* crt = &all->at(c);
        simtime_picosec st = crt->start_ps;
        if (g_finish[c] > last) last = g_finish[c];
        fprintf(f, "%zu %u %u %llu %llu %llu %lld\n", c, crt->src, crt->dst, (unsigned long long)crt->size,
                (unsigned long long)packets[c], (unsigned long long)st,
                g_finished && g_finish[c] ? (long long)g_finish[c] : -1LL);
    }
    fclose(f);
    printf("LOOPLINE flows %zu\n", all->size());
    printf("LOOPLINE finished %llu\n", (unsigned long long)g_finished);
    printf("LOOPLINE events %llu\n", (unsigned long long)events);
    printf("LOOPLINE sim_end_ps %llu\n", (unsigned long long)EventList::now());
    printf("LOOPLINE last_finish_ps %llu\n", (unsigned long long)last);
    printf("LOOPLINE setup_wall_s %.6f\n", t1 - t0);
    printf("LOOPLINE run_wall_s %.6f\n", t2 - t1);
    printf("LOOPLINE events_per_s %.1f\n", events / (t2 - t1 > 0 ? t2 - t1 : 1e-9));
    printf("LOOPLINE vmhwm_kb %ld\n", status_kb("VmHWM:"));
    printf("LOOPLINE switch_drops %llu\n", (unsigned long long)(drops_of(top->queues_nc_nup) + drops_of(top->queues_nup_nlp) +
            drops_of(top->queues_nlp_ns) + drops_of(top->queues_nup_nc) + drops_of(top->queues_nlp_nup)));
    printf("LOOPLINE timeouts %llu\n", (unsigned long long)g_timeouts);
    return 0;
}
