// Command sarama-client drives Sarama 1.22 (Debian's golang-github-shopify-sarama-dev, built in GOPATH mode by
// ../setup.sh into compat-tests/target/sarama-client) for the Java compat tests: one JSON argument in, one JSON
// object per line out (stdout); Sarama's own log on stderr.
//
// Every mode takes "brokers" and "version": a Kafka version as Sarama parses it ("2.1.0") or "" for
// Sarama's default, its oldest (V0_8_2_0: Produce v0 and Fetch v0 with magic 0 messages, no ApiVersions).
//
//	produce: {"mode": "produce", "topic", "compression": "none"|"gzip"|..., "messages": [{"key", "value"}]}
//	         A SyncProducer (acks all, Sarama's FNV-1a hash partitioner) sends them all at once
//	         (SendMessages); prints {"event": "delivered", partition, offset, key, value} per message.
//	consume: {"mode": "consume", "topic", "partitions"}
//	         A partition consumer per partition reads from the oldest offset to the newest that ListOffsets
//	         gave at the start; prints {"event": "end", partition, offset} with that offset, then
//	         {"event": "message", partition, offset, key, value, timestamp} per message, partition by
//	         partition (timestamp in ms, -1 for none: magic 0 messages have none).
//	group:   {"mode": "group", "group", "topic", "expect"}
//	         A ConsumerGroup member (offsets from the oldest when the group has none) marks every message it
//	         gets until it has `expect` (or 30 s pass), then ends its session and closes, which commits;
//	         prints {"event": "message", ...} per message.
//
// Each mode ends with {"event": "done"}; any failure prints {"event": "error", "error"} and exits 1.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/Shopify/sarama"
)

type message struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type options struct {
	Mode        string    `json:"mode"`
	Brokers     []string  `json:"brokers"`
	Version     string    `json:"version"`
	Topic       string    `json:"topic"`
	Compression string    `json:"compression"`
	Messages    []message `json:"messages"`
	Partitions  int32     `json:"partitions"`
	Group       string    `json:"group"`
	Expect      int       `json:"expect"`
}

var out = json.NewEncoder(os.Stdout)
var outLock sync.Mutex

func emit(event map[string]interface{}) {
	outLock.Lock()
	defer outLock.Unlock()
	_ = out.Encode(event)
}

func fail(format string, args ...interface{}) {
	emit(map[string]interface{}{"event": "error", "error": fmt.Sprintf(format, args...)})
	os.Exit(1)
}

func config(opts options) *sarama.Config {
	c := sarama.NewConfig()
	c.ClientID = "sarama-compat"
	if opts.Version != "" {
		v, err := sarama.ParseKafkaVersion(opts.Version)
		if err != nil {
			fail("version: %v", err)
		}
		c.Version = v
	}
	c.Metadata.Retry.Max = 10
	c.Metadata.Retry.Backoff = 500 * time.Millisecond
	c.Net.DialTimeout = 10 * time.Second
	c.Net.ReadTimeout = 20 * time.Second
	return c
}

func produce(opts options) {
	c := config(opts)
	c.Producer.RequiredAcks = sarama.WaitForAll
	c.Producer.Return.Successes = true
	c.Producer.Retry.Max = 3
	switch opts.Compression {
	case "", "none":
	case "gzip":
		c.Producer.Compression = sarama.CompressionGZIP
	case "snappy":
		c.Producer.Compression = sarama.CompressionSnappy
	case "lz4":
		c.Producer.Compression = sarama.CompressionLZ4
	default:
		fail("compression %q", opts.Compression)
	}
	producer, err := sarama.NewSyncProducer(opts.Brokers, c)
	if err != nil {
		fail("NewSyncProducer: %v", err)
	}
	msgs := make([]*sarama.ProducerMessage, len(opts.Messages))
	for i, m := range opts.Messages {
		msgs[i] = &sarama.ProducerMessage{Topic: opts.Topic, Key: sarama.StringEncoder(m.Key),
			Value: sarama.StringEncoder(m.Value)}
	}
	if err := producer.SendMessages(msgs); err != nil {
		fail("SendMessages: %v", err)
	}
	for i, m := range msgs {
		emit(map[string]interface{}{"event": "delivered", "partition": m.Partition, "offset": m.Offset,
			"key": opts.Messages[i].Key, "value": opts.Messages[i].Value})
	}
	if err := producer.Close(); err != nil {
		fail("Close: %v", err)
	}
}

// emitMessage prints a message; its timestamp in milliseconds, -1 when it has none (magic 0).
func emitMessage(m *sarama.ConsumerMessage) {
	timestamp := int64(-1)
	if !m.Timestamp.IsZero() {
		timestamp = m.Timestamp.UnixNano() / int64(time.Millisecond)
	}
	emit(map[string]interface{}{"event": "message", "partition": m.Partition, "offset": m.Offset,
		"key": string(m.Key), "value": string(m.Value), "timestamp": timestamp})
}

func consume(opts options) {
	c := config(opts)
	client, err := sarama.NewClient(opts.Brokers, c)
	if err != nil {
		fail("NewClient: %v", err)
	}
	defer client.Close()
	consumer, err := sarama.NewConsumerFromClient(client)
	if err != nil {
		fail("NewConsumer: %v", err)
	}
	defer consumer.Close()
	for p := int32(0); p < opts.Partitions; p++ {
		end, err := client.GetOffset(opts.Topic, p, sarama.OffsetNewest)
		if err != nil {
			fail("GetOffset(%d): %v", p, err)
		}
		emit(map[string]interface{}{"event": "end", "partition": p, "offset": end})
		if end == 0 {
			continue
		}
		pc, err := consumer.ConsumePartition(opts.Topic, p, sarama.OffsetOldest)
		if err != nil {
			fail("ConsumePartition(%d): %v", p, err)
		}
		timeout := time.After(30 * time.Second)
	read:
		for {
			select {
			case m := <-pc.Messages():
				emitMessage(m)
				if m.Offset >= end-1 {
					break read
				}
			case e := <-pc.Errors():
				fail("partition %d: %v", p, e)
			case <-timeout:
				fail("partition %d: no message up to offset %d within 30 s", p, end-1)
			}
		}
		if err := pc.Close(); err != nil {
			fail("partition %d close: %v", p, err)
		}
	}
}

// groupHandler marks each message and cancels the session once enough have come.
type groupHandler struct {
	lock     sync.Mutex
	received int
	expect   int
	cancel   context.CancelFunc
}

func (h *groupHandler) Setup(s sarama.ConsumerGroupSession) error {
	claims := s.Claims()
	topics := make([]string, 0, len(claims))
	for t := range claims {
		topics = append(topics, t)
	}
	sort.Strings(topics)
	for _, t := range topics {
		emit(map[string]interface{}{"event": "assigned", "topic": t, "partitions": claims[t],
			"generation": s.GenerationID()})
	}
	return nil
}

func (h *groupHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (h *groupHandler) ConsumeClaim(s sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for m := range claim.Messages() {
		emitMessage(m)
		s.MarkMessage(m, "")
		h.lock.Lock()
		h.received++
		if h.received >= h.expect {
			h.cancel()
		}
		h.lock.Unlock()
	}
	return nil
}

func group(opts options) {
	c := config(opts)
	c.Consumer.Offsets.Initial = sarama.OffsetOldest
	c.Consumer.Return.Errors = true
	g, err := sarama.NewConsumerGroup(opts.Brokers, opts.Group, c)
	if err != nil {
		fail("NewConsumerGroup: %v", err)
	}
	go func() {
		for e := range g.Errors() {
			emit(map[string]interface{}{"event": "groupError", "error": e.Error()})
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h := &groupHandler{expect: opts.Expect, cancel: cancel}
	// A session ends at a rebalance too: join again until enough messages came or the time is up.
	for ctx.Err() == nil {
		if err := g.Consume(ctx, []string{opts.Topic}, h); err != nil {
			fail("Consume: %v", err)
		}
	}
	if err := g.Close(); err != nil {
		fail("Close: %v", err)
	}
	if h.received < h.expect {
		fail("%d messages of %d within 30 s", h.received, h.expect)
	}
}

func main() {
	sarama.Logger = log.New(os.Stderr, "[sarama] ", log.LstdFlags|log.Lmicroseconds)
	var opts options
	if len(os.Args) != 2 {
		fail("usage: sarama-client JSON")
	}
	if err := json.Unmarshal([]byte(os.Args[1]), &opts); err != nil {
		fail("options: %v", err)
	}
	switch opts.Mode {
	case "produce":
		produce(opts)
	case "consume":
		consume(opts)
	case "group":
		group(opts)
	default:
		fail("mode %q", opts.Mode)
	}
	emit(map[string]interface{}{"event": "done"})
}
