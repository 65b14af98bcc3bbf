package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// weatherInput is the get_weather argument object. The jsonschema tags become
// the parameter descriptions a model reads when deciding how to call the tool.
type weatherInput struct {
	City  string `json:"city" jsonschema:"Name of the city, e.g. \"Paris\" or \"São Paulo\". Case and extra spaces are ignored."`
	Units string `json:"units,omitempty" jsonschema:"Unit system: metric (°C and km/h, the default) or imperial (°F and mph)."`
}

// weatherReport is the structured result of get_weather.
type weatherReport struct {
	City            string  `json:"city" jsonschema:"The city, as given (whitespace tidied)."`
	Units           string  `json:"units" jsonschema:"Unit system of the numbers: metric or imperial."`
	Temperature     float64 `json:"temperature" jsonschema:"Air temperature in temperature_unit."`
	TemperatureUnit string  `json:"temperature_unit" jsonschema:"°C or °F."`
	Conditions      string  `json:"conditions" jsonschema:"Sky conditions, e.g. clear or light rain."`
	HumidityPercent int     `json:"humidity_percent" jsonschema:"Relative humidity, 0-100."`
	WindSpeed       float64 `json:"wind_speed" jsonschema:"Wind speed in wind_speed_unit."`
	WindSpeedUnit   string  `json:"wind_speed_unit" jsonschema:"km/h or mph."`
	WindDirection   string  `json:"wind_direction" jsonschema:"Compass direction the wind blows from, e.g. NW."`
}

const (
	metric   = "metric"
	imperial = "imperial"
)

// newServer returns the weather MCP server with its single tool registered.
func newServer(logger *slog.Logger) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{
		Name:    "weather",
		Title:   "Example weather server",
		Version: "v0.1.0",
	}, &mcp.ServerOptions{Logger: logger})

	openWorld := false
	mcp.AddTool(server, &mcp.Tool{
		Name:        "get_weather",
		Title:       "Get current weather",
		InputSchema: inputSchema(),
		Description: "Get the current weather for a city: temperature, sky conditions, humidity and wind. " +
			"Returns sample data for demos: it is deterministic per city and is not a live forecast.",
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint: true,
			// The data is computed locally; nothing outside the server is consulted.
			OpenWorldHint: &openWorld,
		},
	}, getWeather)
	return server
}

// inputSchema is the schema inferred from weatherInput plus what struct tags
// cannot express: the allowed units and their default. The SDK validates
// arguments against it, so bad units never reach getWeather.
func inputSchema() *jsonschema.Schema {
	schema, err := jsonschema.For[weatherInput](nil)
	if err != nil {
		panic(err) // weatherInput is fixed at compile time; this cannot fail at run time
	}
	units := schema.Properties["units"]
	units.Enum = []any{metric, imperial}
	units.Default = json.RawMessage(`"` + metric + `"`)
	return schema
}

func getWeather(_ context.Context, _ *mcp.CallToolRequest, in weatherInput) (*mcp.CallToolResult, weatherReport, error) {
	// Returned errors become tool error results (isError: true) rather than
	// protocol errors, so the calling model sees the message and can retry.
	city := strings.Join(strings.Fields(in.City), " ")
	if city == "" {
		return nil, weatherReport{}, errors.New("city is required, e.g. {\"city\": \"Paris\"}")
	}
	r := forecast(city, cmp.Or(in.Units, metric))
	text := fmt.Sprintf("Weather in %s: %.1f %s, %s, humidity %d%%, wind %.1f %s from %s. (Sample data, not a live forecast.)",
		r.City, r.Temperature, r.TemperatureUnit, r.Conditions, r.HumidityPercent, r.WindSpeed, r.WindSpeedUnit, r.WindDirection)
	// Setting Content keeps a readable sentence for the model; the SDK still
	// fills StructuredContent from r.
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, r, nil
}

var (
	conditions = []string{"clear", "mostly sunny", "partly cloudy", "overcast", "fog", "drizzle", "light rain", "heavy rain", "thunderstorms"}
	compass    = []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
)

// forecast derives a plausible report from a hash of the normalized city
// name, so a city always gets the same weather.
func forecast(city, units string) weatherReport {
	h := fnv.New64a()
	h.Write([]byte(normalizeCity(city)))
	sum := h.Sum64()

	// Carve independent-looking values out of different bits of the hash.
	tempC := round1(float64(sum%451)/10 - 10) // -10.0 .. 35.0 °C
	cond := conditions[(sum>>12)%uint64(len(conditions))]
	humidity := 20 + int((sum>>24)%81)     // 20 .. 100 %
	windKmh := float64((sum>>32)%601) / 10 // 0.0 .. 60.0 km/h
	dir := compass[(sum>>48)%uint64(len(compass))]
	if tempC <= 0 {
		// Keep the sample data plausible: precipitation below freezing is snow.
		switch cond {
		case "drizzle", "light rain", "heavy rain", "thunderstorms":
			cond = "snow"
		}
	}

	r := weatherReport{
		City:            city,
		Units:           units,
		Temperature:     tempC,
		TemperatureUnit: "°C",
		Conditions:      cond,
		HumidityPercent: humidity,
		WindSpeed:       windKmh,
		WindSpeedUnit:   "km/h",
		WindDirection:   dir,
	}
	if units == imperial {
		r.Temperature = round1(tempC*9/5 + 32)
		r.TemperatureUnit = "°F"
		r.WindSpeed = round1(windKmh / 1.609344)
		r.WindSpeedUnit = "mph"
	}
	return r
}

// normalizeCity folds case and runs of whitespace, so "  new   YORK" and
// "New York" are the same city.
func normalizeCity(city string) string {
	return strings.ToLower(strings.Join(strings.Fields(city), " "))
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
