// pod-security evaluates every pod template of a Kubernetes manifest stream (stdin, YAML or JSON documents)
// with Kubernetes' own Pod Security Standards evaluator (k8s.io/pod-security-admission, the code the API
// server's PodSecurity admission runs) and prints one JSON result per pod and policy version.
//
//	helm template … | pod-security -level restricted -versions v1.29,latest
//
// Exit status: 0 when every pod is allowed, 1 when one is forbidden, 2 for bad input or flags.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

type result struct {
	Kind      string   `json:"kind"`
	Name      string   `json:"name"`
	Policy    string   `json:"policy"`
	Allowed   bool     `json:"allowed"`
	Forbidden []string `json:"forbidden"`
}

// podTemplate is the part of a workload object that holds its pod; CronJob nests one level deeper.
type podTemplate struct {
	Metadata metav1.ObjectMeta `json:"metadata"`
	Spec     corev1.PodSpec    `json:"spec"`
}

type object struct {
	Kind     string            `json:"kind"`
	Metadata metav1.ObjectMeta `json:"metadata"`
	Spec     json.RawMessage   `json:"spec"`
}

// pod returns the pod metadata and spec of a pod-bearing object, or ok=false for any other kind.
func pod(o object) (*metav1.ObjectMeta, *corev1.PodSpec, bool, error) {
	switch o.Kind {
	case "Pod":
		var spec corev1.PodSpec
		err := json.Unmarshal(o.Spec, &spec)
		return &o.Metadata, &spec, true, err
	case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController", "Job":
		var spec struct {
			Template podTemplate `json:"template"`
		}
		err := json.Unmarshal(o.Spec, &spec)
		return &spec.Template.Metadata, &spec.Template.Spec, true, err
	case "CronJob":
		var spec struct {
			JobTemplate struct {
				Spec struct {
					Template podTemplate `json:"template"`
				} `json:"spec"`
			} `json:"jobTemplate"`
		}
		err := json.Unmarshal(o.Spec, &spec)
		t := spec.JobTemplate.Spec.Template
		return &t.Metadata, &t.Spec, true, err
	}
	return nil, nil, false, nil
}

func run() (bool, error) {
	levelFlag := flag.String("level", "restricted", "Pod Security level: privileged, baseline or restricted")
	versionsFlag := flag.String("versions", "latest", "comma-separated policy versions, e.g. v1.29,latest")
	flag.Parse()
	level, err := api.ParseLevel(*levelFlag)
	if err != nil {
		return false, err
	}
	var versions []api.Version
	for _, v := range strings.Split(*versionsFlag, ",") {
		parsed, err := api.ParseVersion(strings.TrimSpace(v))
		if err != nil {
			return false, err
		}
		versions = append(versions, parsed)
	}
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		return false, err
	}

	allAllowed := true
	evaluated := 0
	out := json.NewEncoder(os.Stdout)
	decoder := utilyaml.NewYAMLOrJSONDecoder(bufio.NewReader(os.Stdin), 4096)
	for {
		var o object
		if err := decoder.Decode(&o); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return false, err
		}
		meta, spec, ok, err := pod(o)
		if err != nil {
			return false, fmt.Errorf("%s %s: %w", o.Kind, o.Metadata.Name, err)
		}
		if !ok {
			continue
		}
		for _, version := range versions {
			lv := api.LevelVersion{Level: level, Version: version}
			aggregate := policy.AggregateCheckResults(evaluator.EvaluatePod(lv, meta, spec))
			forbidden := []string{}
			for i, reason := range aggregate.ForbiddenReasons {
				forbidden = append(forbidden, reason+": "+aggregate.ForbiddenDetails[i])
			}
			allAllowed = allAllowed && aggregate.Allowed
			evaluated++
			if err := out.Encode(result{o.Kind, o.Metadata.Name, lv.String(), aggregate.Allowed, forbidden}); err != nil {
				return false, err
			}
		}
	}
	if evaluated == 0 {
		return false, errors.New("no pod-bearing object in the input")
	}
	return allAllowed, nil
}

func main() {
	allowed, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pod-security:", err)
		os.Exit(2)
	}
	if !allowed {
		os.Exit(1)
	}
}
